package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.compose.McpAssembly;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code notifications/cancelled} on the real stdio transport and a real server, in-process. */
class StdioCancellationTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path home;

  final SlowTool tool = new SlowTool();
  final Lines output = new Lines();
  PipedOutputStream input;
  McpAsyncServer server;
  Thread serving;

  /** Collects what the server writes, one JSON-RPC line at a time. */
  static final class Lines extends OutputStream {
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        lines.add(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }

    JsonNode next() throws InterruptedException {
      String text = lines.poll(60, TimeUnit.SECONDS);
      assertThat(text).as("a line from the server within 60 s").isNotNull();
      return JSON.readTree(text);
    }

    List<JsonNode> rest() {
      List<JsonNode> rest = new ArrayList<>();
      for (String text : lines) {
        rest.add(JSON.readTree(text));
      }
      return rest;
    }
  }

  @BeforeEach
  void start() throws Exception {
    input = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(input, 1 << 16);
    StdioTransport transport = new StdioTransport(McpAssembly.sdkMapper(), in, output, 1 << 20);
    server =
        tool.serve(
            McpServer.async(transport),
            home,
            new McpAssembly.TransportHooks(transport, transport.cancelSignals()));
    serving = new Thread(transport::serve, "stdio-serve");
    serving.start();
    send(SlowTool.INITIALIZE);
    assertThat(output.next().path("result").has("serverInfo")).isTrue();
    send(SlowTool.INITIALIZED);
  }

  @AfterEach
  void stop() throws Exception {
    tool.release.countDown();
    input.close();
    serving.join(TimeUnit.SECONDS.toMillis(30));
    server.closeGracefully().block(java.time.Duration.ofSeconds(5));
  }

  void send(String line) throws IOException {
    input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    input.flush();
  }

  /** Ends the input and waits until the transport has drained every request in flight. */
  List<JsonNode> finish() throws Exception {
    input.close();
    serving.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(serving.isAlive()).as("serve() returned").isFalse();
    return output.rest();
  }

  @Test
  void cancelledCall_isNotAnswered_norReportsProgress_butItsWorkFinishes() throws Exception {
    send(SlowTool.call(2, "p2"));
    SlowTool.await(tool.started);
    JsonNode progressBefore = output.next();

    send(SlowTool.cancel(2));
    send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
    JsonNode pong = output.next();
    tool.release.countDown();
    List<JsonNode> rest = finish();

    assertThat(progressBefore.path("method").asString()).isEqualTo("notifications/progress");
    assertThat(progressBefore.path("params").path("progressToken").asString()).isEqualTo("p2");
    assertThat(pong.path("id").asInt()).isEqualTo(3);
    assertThat(pong.has("result")).isTrue();
    assertThat(tool.finished.getCount()).as("the cancelled call ran to its end").isZero();
    assertThat(tool.cancelled.getCount()).as("the call was told it was cancelled").isZero();
    assertThat(rest).as("nothing more about request 2").isEmpty();
  }

  @Test
  void cancelOfAnotherId_leavesTheCallAnsweredWithItsProgress() throws Exception {
    send(SlowTool.call(2, "p2"));
    SlowTool.await(tool.started);
    output.next();

    send(SlowTool.cancel(99));
    send(SlowTool.cancel("2"));
    tool.release.countDown();
    JsonNode progressAfter = output.next();
    JsonNode answer = output.next();
    List<JsonNode> rest = finish();

    assertThat(progressAfter.path("params").path("progress").asDouble()).isEqualTo(2.0);
    assertThat(answer.path("id").asInt()).isEqualTo(2);
    assertThat(answer.path("result").path("structuredContent").path("done").asString())
        .isEqualTo("yes");
    assertThat(rest).as("the cancels themselves are not answered").isEmpty();
    assertThat(tool.cancelled.getCount()).as("no cancel reached the call").isOne();
  }

  @Test
  void cancelOfInitialize_orOfAnAnsweredRequest_isIgnored() throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
    JsonNode pong = output.next();

    send(SlowTool.cancel(1));
    send(SlowTool.cancel(4));
    send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}");
    JsonNode tools = output.next();
    List<JsonNode> rest = finish();

    assertThat(pong.path("id").asInt()).isEqualTo(4);
    assertThat(tools.path("id").asInt()).isEqualTo(5);
    assertThat(tools.path("result").path("tools").get(0).path("name").asString()).isEqualTo("slow");
    assertThat(rest).isEmpty();
  }
}
