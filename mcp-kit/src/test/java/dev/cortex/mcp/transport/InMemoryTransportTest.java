package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.caller.RequestWithdrawal;
import dev.cortex.mcp.compose.McpAssembly;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real SDK server and a real SDK client joined by the in-memory pair, in one process. */
class InMemoryTransportTest {
  @TempDir Path home;

  final SlowTool tool = new SlowTool();
  InMemoryTransport transport;
  McpAsyncServer server;
  McpAsyncClient client;

  @BeforeEach
  void connect() {
    transport = new InMemoryTransport(McpAssembly.sdkMapper());
    server =
        tool.serve(
            McpServer.async(transport.serverSide()),
            home,
            new McpAssembly.TransportHooks(RequestWithdrawal.NONE, transport.cancelSignals()));
    client =
        McpClient.async(transport.clientSide())
            .clientInfo(new McpSchema.Implementation("test", "1"))
            .requestTimeout(Duration.ofSeconds(60))
            .build();
    client.initialize().block(Duration.ofSeconds(30));
  }

  @AfterEach
  void close() {
    tool.release.countDown();
    client.closeGracefully().block(Duration.ofSeconds(5));
    server.closeGracefully().block(Duration.ofSeconds(5));
  }

  @Test
  void listAndCall_throughThePair_answerAsOverAWire() {
    McpSchema.ListToolsResult tools = client.listTools().block(Duration.ofSeconds(30));
    assertThat(tools.tools()).extracting(McpSchema.Tool::name).containsExactly("slow");

    tool.release.countDown();
    McpSchema.CallToolResult result =
        client
            .callTool(McpSchema.CallToolRequest.builder().name("slow").arguments(Map.of()).build())
            .block(Duration.ofSeconds(30));

    assertThat(result.isError()).isFalse();
    assertThat(result.structuredContent()).isEqualTo(Map.of("done", "yes"));
  }

  @Test
  void cancel_ofACallInFlight_reachesTheTool() throws Exception {
    CompletableFuture<McpSchema.CallToolResult> answer =
        client
            .callTool(
                McpSchema.CallToolRequest.builder()
                    .name("slow")
                    .arguments(Map.of())
                    .meta(Map.of(CancelSignals.META_KEY, "call-1"))
                    .build())
            .toFuture();
    assertThat(tool.started.await(30, TimeUnit.SECONDS)).isTrue();

    transport.cancel("call-1");

    assertThat(tool.cancelled.await(30, TimeUnit.SECONDS)).as("the tool heard the cancel").isTrue();
    tool.release.countDown();
    answer.get(30, TimeUnit.SECONDS);
    transport.finished("call-1");
  }

  @Test
  void cancel_ofAnotherCall_leavesThisOneAlone() throws Exception {
    transport.cancel("call-other");
    CompletableFuture<McpSchema.CallToolResult> answer =
        client
            .callTool(
                McpSchema.CallToolRequest.builder()
                    .name("slow")
                    .arguments(Map.of())
                    .meta(Map.of(CancelSignals.META_KEY, "call-2"))
                    .build())
            .toFuture();
    assertThat(tool.started.await(30, TimeUnit.SECONDS)).isTrue();
    tool.release.countDown();

    assertThat(answer.get(30, TimeUnit.SECONDS).isError()).isFalse();
    assertThat(tool.cancelled.getCount()).isEqualTo(1);
  }
}
