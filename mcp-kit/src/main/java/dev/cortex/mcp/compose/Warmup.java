package dev.cortex.mcp.compose;

import dev.cortex.base.Json;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Runs the first-request code paths (JSON mapping of MCP messages, Reactor's schedulers) on a
 * second core while the main thread parses the command line and builds the server, so that the
 * {@code initialize} answer does not wait for class loading done in series.
 */
public final class Warmup {
  private static final String SAMPLE_REQUEST =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{\"elicitation\":{}},\"clientInfo\":{\"name\":\"warmup\",\"version\":\"0\"}}}";

  private Warmup() {}

  /** Starts the warm-up on a daemon thread and returns at once. */
  public static void start() {
    inBackground(Warmup::run);
  }

  /** Runs further preparation (e.g. compiling tool schemas) on a daemon thread. */
  public static void inBackground(Runnable work) {
    Thread thread = new Thread(work, "cortex-warmup");
    thread.setDaemon(true);
    thread.start();
  }

  private static void run() {
    try {
      LoggerFactory.getLogger(Warmup.class);
      McpJsonMapper mapper = McpAssembly.sdkMapper();
      McpSchema.JSONRPCMessage message =
          McpSchema.deserializeJsonRpcMessage(mapper, SAMPLE_REQUEST);
      if (message instanceof McpSchema.JSONRPCRequest request) {
        McpSchema.InitializeRequest init =
            mapper.convertValue(request.params(), McpSchema.InitializeRequest.class);
        McpSchema.InitializeResult result =
            new McpSchema.InitializeResult(
                init.protocolVersion(),
                McpSchema.ServerCapabilities.builder().tools(false).build(),
                new McpSchema.Implementation("cortex", "Cortex", "0"),
                "warm-up");
        mapper.writeValueAsString(McpSchema.JSONRPCResponse.result(request.id(), result));
      }
      McpSchema.CallToolRequest call =
          mapper.convertValue(
              java.util.Map.of("name", "warmup", "arguments", java.util.Map.of("a", 1)),
              McpSchema.CallToolRequest.class);
      McpSchema.CallToolResult callResult =
          McpSchema.CallToolResult.builder()
              .addTextContent(call.name())
              .structuredContent(Json.tree(call.arguments()))
              .isError(false)
              .build();
      mapper.writeValueAsString(McpSchema.JSONRPCResponse.result(1, callResult));
      Mono.just(1).subscribeOn(Schedulers.boundedElastic()).block();
      Json.mapper().writeValueAsString(java.util.Map.of("warm", true));
    } catch (Exception | LinkageError e) {
      // A failed warm-up only costs time: the real request path reports its own errors.
    }
  }
}
