package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.Elicitor;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolSpec;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** A tool asks the human through the client; the stdio transport can withdraw the question. */
class StdioElicitationTest {
  @TempDir Path home;

  final StdioCancellationTest.Lines output = new StdioCancellationTest.Lines();
  final CountDownLatch withdraw = new CountDownLatch(1);
  PipedOutputStream input;
  McpAsyncServer server;
  Thread serving;

  /** A tool that asks, then answers what it heard; told to, it withdraws the question instead. */
  ToolSpec ask() {
    return ToolSpec.builder(
            "ask",
            call -> {
              if (call.context().elicitor().isEmpty()) {
                return Map.of("heard", "no elicitation");
              }
              CompletableFuture<Elicitor.Answer> answer =
                  call.context()
                      .elicitor()
                      .get()
                      .ask(
                          "Proceed?",
                          Schema.object().required("approve", Schema.bool("Approve.")).build());
              if (call.arguments().path("withdraw").asBoolean(false)) {
                SlowTool.await(withdraw);
                answer.cancel(true);
                return Map.of("heard", "withdrawn");
              }
              Elicitor.Answer heard;
              try {
                heard = answer.get(60, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
              return Map.of("heard", heard.action() + " " + heard.content());
            })
        .title("Ask")
        .description("Asks the human.")
        .input(Schema.object().optional("withdraw", Schema.bool("Withdraw.")).build())
        .hints(ToolHints.readOnlyLocal())
        .output(Schema.object().required("heard", Schema.string("what the human said")).build())
        .blocking()
        .build();
  }

  void start(String capabilities) throws Exception {
    input = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(input, 1 << 16);
    StdioTransport transport = new StdioTransport(McpAssembly.sdkMapper(), in, output, 1 << 20);
    ToolSpec tool = ask();
    ToolInvoker invoker =
        new ToolInvoker(
            List.of(tool), new CortexHome(home, home.resolve("data")), Clock.systemUTC());
    server =
        McpAssembly.build(
            McpServer.async(transport),
            new Composition(
                List.of(CapabilityGroup.ofTools("test", "cortex-test", "test", List.of(tool))),
                List.of(tool)),
            invoker,
            new McpAssembly.ServerIdentity("test", "Test", "0", null),
            new McpAssembly.TransportHooks(transport, transport.cancelSignals()),
            new dev.cortex.mcp.caller.Sessions(dev.cortex.mcp.caller.SessionIdentity.NONE));
    serving = new Thread(transport::serve, "stdio-serve");
    serving.start();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":"
            + capabilities
            + ",\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
    assertThat(output.next().path("result").has("serverInfo")).isTrue();
    send(SlowTool.INITIALIZED);
  }

  @AfterEach
  void stop() throws Exception {
    withdraw.countDown();
    input.close();
    serving.join(TimeUnit.SECONDS.toMillis(30));
    server.closeGracefully().block(java.time.Duration.ofSeconds(5));
  }

  void send(String line) throws IOException {
    input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    input.flush();
  }

  static String call(int id, boolean withdraw) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\"ask\",\"arguments\":{\"withdraw\":"
        + withdraw
        + "}}}";
  }

  @Test
  void elicitor_absentWhenTheClientDidNotDeclareIt() throws Exception {
    start("{}");
    send(call(2, false));

    JsonNode answer = output.next();

    assertThat(answer.path("result").path("structuredContent").path("heard").asString())
        .isEqualTo("no elicitation");
  }

  @Test
  void elicitor_asksTheClient_andHandsBackItsAnswer() throws Exception {
    start("{\"elicitation\":{}}");
    send(call(2, false));

    JsonNode asked = output.next();
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + ToolContractJson.quote(asked.path("id").asString())
            + ",\"result\":{\"action\":\"accept\",\"content\":{\"approve\":true}}}");
    JsonNode answer = output.next();

    assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
    assertThat(asked.path("params").path("message").asString()).isEqualTo("Proceed?");
    assertThat(asked.path("params").path("requestedSchema").path("properties").has("approve"))
        .isTrue();
    assertThat(answer.path("id").asInt()).isEqualTo(2);
    assertThat(answer.path("result").path("structuredContent").path("heard").asString())
        .isEqualTo("ACCEPT {approve=true}");
  }

  @Test
  void cancellingTheAnswer_withdrawsTheQuestion_withNotificationsCancelledForItsId()
      throws Exception {
    start("{\"elicitation\":{}}");
    send(call(2, true));

    JsonNode asked = output.next();
    withdraw.countDown();
    JsonNode first = output.next();
    JsonNode second = output.next();
    JsonNode cancelled = first.has("method") ? first : second;
    JsonNode answer = first.has("method") ? second : first;

    assertThat(cancelled.path("method").asString()).isEqualTo("notifications/cancelled");
    assertThat(cancelled.path("params").path("requestId").asString())
        .isEqualTo(asked.path("id").asString());
    assertThat(answer.path("result").path("structuredContent").path("heard").asString())
        .isEqualTo("withdrawn");
  }

  /** JSON quoting for ids in hand-written lines. */
  static final class ToolContractJson {
    static String quote(String text) {
      return StdioCancellationTest.JSON.writeValueAsString(text);
    }
  }
}
