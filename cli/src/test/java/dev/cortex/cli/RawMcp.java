package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex mcp} on stdio spoken to in raw JSON-RPC lines by a client that declares the
 * capabilities it is given: to see server-to-client requests and their withdrawal on the wire.
 */
final class RawMcp implements AutoCloseable {
  static final Duration LIMIT = Duration.ofSeconds(60);

  final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  final StringBuffer stderr = new StringBuffer();

  RawMcp(Map<String, String> env, String capabilities, List<String> jvmOptions) throws IOException {
    this(CortexProcess.command(jvmOptions, "mcp"), env, capabilities);
  }

  /** Any command that serves MCP on stdio, started with exactly the environment {@code env}. */
  RawMcp(List<String> command, Map<String, String> env, String capabilities) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(env);
    process = builder.start();
    stdin = process.getOutputStream();
    daemon(
        () -> {
          BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
          }
          lines.add("EOF");
        });
    daemon(
        () ->
            stderr.append(
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)));
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":"
            + capabilities
            + ",\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
    assertThat(next().path("id").asInt()).isEqualTo(1);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  }

  interface Body {
    void run() throws IOException;
  }

  private static void daemon(Body body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (IOException ignored) {
                // the process ended
              }
            });
    thread.setDaemon(true);
    thread.start();
  }

  void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  /** Sends {@code tools/call} of {@code tool} with id {@code id} and JSON {@code arguments}. */
  void call(int id, String tool, String arguments) throws IOException {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
            + tool
            + "\",\"arguments\":"
            + arguments
            + "}}");
  }

  /** Answers the server's request {@code id} with {@code result} (JSON). */
  void answer(JsonNode id, String result) throws IOException {
    send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}");
  }

  /** The next message, failing after {@link #LIMIT}. */
  JsonNode next() {
    String line;
    try {
      line = lines.poll(LIMIT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertThat(line).as("no message within %s; stderr: %s", LIMIT, stderr).isNotNull();
    assertThat(line).as("output ended; stderr: %s", stderr).isNotEqualTo("EOF");
    return ToolContract.JSON.readTree(line);
  }

  /** The next message that has method {@code method}, or is the response {@code id}. */
  JsonNode until(String method, int id) {
    while (true) {
      JsonNode message = next();
      if (method.equals(message.path("method").asString(""))
          || (!message.has("method") && message.path("id").asInt(-1) == id)) {
        return message;
      }
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
