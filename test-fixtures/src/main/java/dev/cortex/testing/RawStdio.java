package dev.cortex.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code cortex mcp} on stdio spoken to in raw JSON-RPC lines: what a test writes goes out as is,
 * and every line the server writes is read as it comes (stdout and stderr are drained on threads of
 * their own, so the server never blocks on them).
 */
public final class RawStdio implements AutoCloseable {
  public static final Duration LIMIT = Duration.ofSeconds(60);
  public static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String END = "\u0000end";

  public final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private final Thread errors;
  private volatile boolean approving;

  private RawStdio(Process process) {
    this.process = process;
    this.stdin = process.getOutputStream();
    daemon(
        () -> {
          BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
          for (String line = out.readLine(); line != null; line = out.readLine()) {
            lines.add(line);
          }
        },
        () -> lines.add(END));
    errors =
        daemon(
            () ->
                stderr.append(
                    new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)),
            () -> {});
  }

  /** Any MCP server's {@code command} (a launcher, an image), with exactly {@code env}. */
  public static RawStdio spawn(List<String> command, Map<String, String> env) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(env);
    return new RawStdio(builder.start());
  }

  /** {@code cortex ARGS} (e.g. {@code mcp --bundles core}), not yet initialized. */
  public static RawStdio start(Map<String, String> env, String... args) throws IOException {
    return new RawStdio(CortexProcess.start(env, args));
  }

  /** As {@link #start}, with extra JVM options for the server. */
  public static RawStdio start(Map<String, String> env, List<String> jvmOptions, String... args)
      throws IOException {
    return new RawStdio(CortexProcess.start(env, jvmOptions, args));
  }

  /**
   * {@code cortex mcp} (the default composition unless {@code args} say otherwise), initialized by
   * a client that declares {@code capabilities} (JSON).
   */
  public static RawStdio initialized(
      Map<String, String> env, String capabilities, List<String> jvmOptions, String... args)
      throws IOException {
    String[] command = new String[args.length + 1];
    command[0] = "mcp";
    System.arraycopy(args, 0, command, 1, args.length);
    RawStdio wire = start(env, jvmOptions, command);
    wire.initialize(capabilities);
    return wire;
  }

  private interface Body {
    void run() throws IOException;
  }

  private static Thread daemon(Body body, Runnable then) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (IOException ignored) {
                // the process ended
              } finally {
                then.run();
              }
            });
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Sends {@code initialize} and {@code notifications/initialized}; returns the answer. */
  public JsonNode initialize(String capabilities) throws IOException {
    send(JsonRpcLines.initialize(capabilities));
    JsonNode answer = next();
    assertThat(answer.path("id").asInt()).as("the answer to initialize: %s", answer).isEqualTo(1);
    send(JsonRpcLines.INITIALIZED);
    return answer;
  }

  /** Writes each line, newline-terminated, and flushes. */
  public void send(String... messages) throws IOException {
    for (String message : messages) {
      stdin.write((message + "\n").getBytes(StandardCharsets.UTF_8));
    }
    stdin.flush();
  }

  /** Sends {@code tools/call} of {@code tool} with id {@code id} and JSON {@code arguments}. */
  public void call(int id, String tool, String arguments) throws IOException {
    send(JsonRpcLines.toolsCall(id, tool, arguments));
  }

  /**
   * Sends {@code tools/call} and returns every message up to and including its answer, added to
   * {@code seen}.
   */
  public List<JsonNode> call(int id, String tool, String arguments, List<JsonNode> seen)
      throws IOException {
    call(id, tool, arguments);
    answerTo(id, seen);
    return seen;
  }

  /** Answers the server's request {@code id} with {@code result} (JSON). */
  public void answer(JsonNode id, String result) throws IOException {
    send(JsonRpcLines.answer(id.toString(), result));
  }

  /** Ends the server's input. */
  public void closeInput() throws IOException {
    stdin.close();
  }

  /**
   * From now on, approves every confirmation the server asks through elicitation, as a person
   * would, and leaves those questions out of what {@link #next} returns.
   */
  public RawStdio approvingConfirmations() {
    approving = true;
    return this;
  }

  /** The next message, failing after {@link #LIMIT} or at the end of the output. */
  public JsonNode next() {
    while (true) {
      String line = poll();
      assertThat(line).as("no message within %s; stderr: %s", LIMIT, stderr).isNotNull();
      assertThat(line).as("output ended; stderr: %s", stderr).isNotEqualTo(END);
      JsonNode message = JSON.readTree(line);
      if (!approving || !"elicitation/create".equals(message.path("method").asString(""))) {
        return message;
      }
      try {
        answer(message.path("id"), "{\"action\":\"accept\",\"content\":{\"approve\":true}}");
      } catch (IOException e) {
        throw new AssertionError("cannot answer the confirmation", e);
      }
    }
  }

  /** Reads messages up to the answer to {@code id}, keeping all of them in {@code seen}. */
  public JsonNode answerTo(int id, List<JsonNode> seen) {
    while (true) {
      JsonNode message = next();
      seen.add(message);
      if (message.path("id").asInt(-1) == id && !message.has("method")) {
        return message;
      }
    }
  }

  /** The next message that has method {@code method}, or is the response {@code id}. */
  public JsonNode until(String method, int id) {
    while (true) {
      JsonNode message = next();
      if (method.equals(message.path("method").asString(""))
          || (!message.has("method") && message.path("id").asInt(-1) == id)) {
        return message;
      }
    }
  }

  /** Every message up to the end of the output (after {@link #closeInput}, say). */
  public List<JsonNode> rest() {
    List<JsonNode> rest = new ArrayList<>();
    for (String line = poll(); !END.equals(line); line = poll()) {
      assertThat(line).as("output did not end within %s; stderr: %s", LIMIT, stderr).isNotNull();
      rest.add(JSON.readTree(line));
    }
    return rest;
  }

  /** Waits for the process to exit; its exit code. */
  public int exitCode() throws InterruptedException {
    assertThat(process.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS))
        .as("the server exits; stderr: %s", stderr)
        .isTrue();
    return process.exitValue();
  }

  /** Everything the server wrote to stderr so far. */
  public String stderr() {
    return stderr.toString();
  }

  /** Everything the server wrote to stderr, once it has exited. */
  public String stderrAtExit() throws InterruptedException {
    exitCode();
    errors.join(LIMIT.toMillis());
    return stderr.toString();
  }

  private String poll() {
    try {
      return lines.poll(LIMIT.toSeconds(), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
