package dev.cortex.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A minimal JSON-RPC client for one MCP server child process on stdio (newline-delimited JSON).
 *
 * <p>A dedicated thread reads stdout and stamps each line with {@link System#nanoTime()} as soon as
 * it is read, before parsing, so the client's own JSON work stays out of the figures. Another
 * thread drains stderr so the child never blocks on a full pipe. Notifications are counted,
 * requests from the server are answered (ping) or refused, and lines that are not JSON are kept as
 * evidence of a polluted stdout.
 */
final class StdioClient implements AutoCloseable {
  static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final int STDERR_KEPT = 4096;
  private static final int STRAY_KEPT = 5;
  private static final Duration GRACE = Duration.ofSeconds(3);

  /** A response and the moment its line was read. */
  record Reply(JsonNode message, long receivedNanos) {
    /** A JSON-RPC error or a tool result flagged {@code isError}. */
    boolean failed() {
      return message.has("error") || message.path("result").path("isError").asBoolean(false);
    }
  }

  /** A request on its way: its id, the moment it was written, and its reply to come. */
  record Sent(long id, long sentNanos, CompletableFuture<Reply> reply) {}

  private final String name;
  private final Process process;
  private final long spawnNanos;
  private final OutputStream stdin;
  private final Map<Long, CompletableFuture<Reply>> pending = new ConcurrentHashMap<>();
  private final Map<String, Integer> notifications = new ConcurrentHashMap<>();
  private final Map<String, Integer> serverRequests = new ConcurrentHashMap<>();
  private final List<String> strayLines = new CopyOnWriteArrayList<>();
  private final ByteArrayOutputStream stderrHead = new ByteArrayOutputStream();
  private final AtomicLong stderrBytes = new AtomicLong();
  private final AtomicLong nextId = new AtomicLong(1);
  private Thread stdoutReader;
  private Thread stderrDrain;
  private volatile boolean stdoutClosed;
  private boolean forcedExit;

  private StdioClient(String name, Process process, long spawnNanos) {
    this.name = name;
    this.process = process;
    this.spawnNanos = spawnNanos;
    this.stdin = process.getOutputStream();
  }

  /** Spawns the server; {@link #spawnNanos()} is taken just before the process is created. */
  static StdioClient spawn(Server server) throws IOException {
    return spawn(server, Map.of());
  }

  /** As {@link #spawn(Server)}, with {@code env} added to this process's environment. */
  static StdioClient spawn(Server server, Map<String, String> env) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(server.command());
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process = builder.start();
    StdioClient client = new StdioClient(server.name(), process, start);
    client.stdoutReader = daemon(server.name() + "-stdout", client::readStdout);
    client.stderrDrain = daemon(server.name() + "-stderr", client::drainStderr);
    return client;
  }

  long spawnNanos() {
    return spawnNanos;
  }

  Process process() {
    return process;
  }

  /** Sends {@code initialize} and waits for its result; fails if the server refuses it. */
  Reply initialize(Duration timeout) throws IOException {
    ObjectNode params = MAPPER.createObjectNode().put("protocolVersion", "2025-06-18");
    params.putObject("capabilities");
    params.putObject("clientInfo").put("name", "cortex-bench").put("version", "1");
    Reply reply = await(send("initialize", params), timeout);
    if (reply.message().has("error")) {
      throw new IOException(name + " refused initialize: " + reply.message().get("error"));
    }
    return reply;
  }

  /** Writes a request; its reply completes {@link Sent#reply()}. */
  Sent send(String method, JsonNode params) throws IOException {
    long id = nextId.getAndIncrement();
    ObjectNode message = envelope(method).put("id", id);
    if (params != null) {
      message.set("params", params);
    }
    byte[] line = line(message);
    CompletableFuture<Reply> reply = new CompletableFuture<>();
    pending.put(id, reply);
    if (stdoutClosed) {
      reply.completeExceptionally(closedError());
    }
    return new Sent(id, write(line), reply);
  }

  /** Writes a notification. */
  void notify(String method) throws IOException {
    write(line(envelope(method)));
  }

  /** Waits for the reply to a request. */
  Reply await(Sent sent, Duration timeout) throws IOException {
    try {
      return sent.reply().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException(name + ": no reply to request " + sent.id() + " within " + timeout);
    } catch (ExecutionException e) {
      throw new IOException(name + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(name + ": interrupted", e);
    }
  }

  Map<String, Integer> notifications() {
    return notifications;
  }

  Map<String, Integer> serverRequests() {
    return serverRequests;
  }

  List<String> strayLines() {
    return strayLines;
  }

  long stderrBytes() {
    return stderrBytes.get();
  }

  String stderrHead() {
    synchronized (stderrHead) {
      return stderrHead.toString(UTF_8);
    }
  }

  /** Whether the server had to be killed because it did not exit when its stdin closed. */
  boolean forcedExit() {
    return forcedExit;
  }

  /** Closes stdin and waits for the server to exit, killing it after a grace period. */
  @Override
  public void close() {
    try {
      synchronized (stdin) {
        stdin.close();
      }
    } catch (IOException e) {
      // the server is gone already
    }
    if (!exited(process)) {
      forcedExit = true;
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
      if (!exited(process)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
      }
    }
    join(stdoutReader);
    join(stderrDrain);
  }

  private ObjectNode envelope(String method) {
    return MAPPER.createObjectNode().put("jsonrpc", "2.0").put("method", method);
  }

  private static byte[] line(JsonNode message) {
    return (MAPPER.writeValueAsString(message) + "\n").getBytes(UTF_8);
  }

  /** Writes one line and returns the moment the write began. */
  private long write(byte[] line) throws IOException {
    synchronized (stdin) {
      long now = System.nanoTime();
      stdin.write(line);
      stdin.flush();
      return now;
    }
  }

  private void readStdout() {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        long now = System.nanoTime();
        dispatch(line, now);
      }
    } catch (IOException e) {
      // stdout closed under us: same as end of stream
    }
    stdoutClosed = true;
    IOException closed = closedError();
    pending.values().forEach(reply -> reply.completeExceptionally(closed));
  }

  private void dispatch(String line, long receivedNanos) {
    if (line.isBlank()) {
      return;
    }
    JsonNode message;
    try {
      message = MAPPER.readTree(line);
    } catch (JacksonException e) {
      stray(line);
      return;
    }
    JsonNode id = message.get("id");
    JsonNode method = message.get("method");
    if (method == null) {
      CompletableFuture<Reply> reply =
          id != null && id.isIntegralNumber() ? pending.remove(id.asLong()) : null;
      if (reply == null) {
        stray(line);
      } else {
        reply.complete(new Reply(message, receivedNanos));
      }
    } else if (id == null) {
      notifications.merge(method.asString(), 1, Integer::sum);
    } else {
      serverRequests.merge(method.asString(), 1, Integer::sum);
      answer(id, method.asString());
    }
  }

  /**
   * Answers a request from the server: {@code ping} gets an empty result, anything else a refusal.
   */
  private void answer(JsonNode id, String method) {
    ObjectNode response = MAPPER.createObjectNode().put("jsonrpc", "2.0").set("id", id);
    if (method.equals("ping")) {
      response.putObject("result");
    } else {
      response.putObject("error").put("code", -32601).put("message", "not supported by the bench");
    }
    try {
      write(line(response));
    } catch (IOException e) {
      // the server is going away; its pending requests will fail on their own
    }
  }

  private void stray(String line) {
    if (strayLines.size() < STRAY_KEPT) {
      strayLines.add(line.length() > 200 ? line.substring(0, 200) + "..." : line);
    }
  }

  private void drainStderr() {
    byte[] buffer = new byte[8192];
    try (InputStream err = process.getErrorStream()) {
      int n;
      while ((n = err.read(buffer)) >= 0) {
        stderrBytes.addAndGet(n);
        synchronized (stderrHead) {
          int keep = Math.min(n, STDERR_KEPT - stderrHead.size());
          if (keep > 0) {
            stderrHead.write(buffer, 0, keep);
          }
        }
      }
    } catch (IOException e) {
      // the child is gone
    }
  }

  private IOException closedError() {
    String exit = process.isAlive() ? "" : " (exit code " + process.exitValue() + ")";
    String err = stderrHead().strip();
    return new IOException(
        "the server closed its stdout" + exit + (err.isEmpty() ? "" : "; stderr: " + err));
  }

  private static boolean exited(Process process) {
    try {
      return process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void join(Thread thread) {
    try {
      thread.join(GRACE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
