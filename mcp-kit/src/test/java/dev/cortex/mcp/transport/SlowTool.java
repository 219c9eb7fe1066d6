package dev.cortex.mcp.transport;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.Sessions;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolSpec;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A server with one tool, {@code slow}, that reports progress, then waits until the test releases
 * it, reports progress again and answers. Latches, not sleeps, tell the test where it is.
 */
final class SlowTool {
  final CountDownLatch started = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);
  final CountDownLatch finished = new CountDownLatch(1);
  final CountDownLatch cancelled = new CountDownLatch(1);

  ToolSpec spec() {
    return ToolSpec.builder(
            "slow",
            call -> {
              call.context().cancellation().onCancel(cancelled::countDown);
              call.context().progress().report(1, 2.0, "started");
              started.countDown();
              await(release);
              call.context().progress().report(2, 2.0, "done");
              finished.countDown();
              return Map.of("done", "yes");
            })
        .title("Slow")
        .description("Waits until the test releases it.")
        .hints(ToolHints.readOnlyLocal())
        .output(Schema.object().required("done", Schema.string("always yes")).build())
        .blocking()
        .build();
  }

  /** Builds an MCP server serving {@link #spec()} on the given SDK specification. */
  McpAsyncServer serve(McpServer.AsyncSpecification<?> specification, Path home) {
    return serve(specification, home, McpAssembly.TransportHooks.none());
  }

  /** As {@link #serve(McpServer.AsyncSpecification, Path)}, with the transport's hooks. */
  McpAsyncServer serve(
      McpServer.AsyncSpecification<?> specification, Path home, McpAssembly.TransportHooks hooks) {
    ToolSpec tool = spec();
    Composition composition =
        new Composition(
            List.of(CapabilityGroup.ofTools("test", "cortex-test", "test", List.of(tool))),
            List.of(tool));
    ToolInvoker invoker =
        new ToolInvoker(
            List.of(tool), new CortexHome(home, home.resolve("data")), Clock.systemUTC());
    return McpAssembly.build(
        specification,
        composition,
        invoker,
        new McpAssembly.ServerIdentity("test", "Test", "0", null),
        hooks,
        new Sessions(SessionIdentity.NONE));
  }

  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("latch not released within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static String call(int id, String progressToken) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"slow\",\"arguments\":{},"
        + "\"_meta\":{\"progressToken\":\""
        + progressToken
        + "\"}}}";
  }

  static String cancel(Object id) {
    String json = id instanceof String ? "\"" + id + "\"" : String.valueOf(id);
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
        + json
        + ",\"reason\":\"test\"}}";
  }

  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
}
