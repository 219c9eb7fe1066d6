package dev.cortex.bench;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real {@code cortex server} that a harness drives over its webhook, and the marks of the
 * command-backend programs it runs: each program writes a line to a FIFO this process reads as it
 * reads its turn, so no clock is shared across processes.
 */
final class BenchServer {
  static final Duration LIMIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final BlockingQueue<Long> marks = new LinkedBlockingQueue<>();
  private final Path fifo;
  private int webhook;
  private String token;

  private BenchServer(Path fifo) {
    this.fifo = fifo;
  }

  /**
   * Starts a server on a fresh home in {@code work} with {@code toml} as its {@code cortex.toml}
   * and {@code env} added, and waits until its webhook answers.
   */
  static BenchServer start(
      Path launcher, Path work, String toml, Map<String, String> env, List<Process> children)
      throws Exception {
    Path home = Files.createDirectories(work.resolve("server"));
    Files.writeString(Files.createDirectories(home.resolve("config")).resolve("cortex.toml"), toml);
    BenchServer server = new BenchServer(work.resolve("turns.fifo"));
    server.listen();
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("CORTEX_HOME", home.toString());
    AgentServerBench.progress("starting the agent server ...");
    children.add(
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            all,
            work.resolve("server.log")));
    Path serverFile = home.resolve("data").resolve("server.json");
    AgentServerBench.await(() -> Files.isRegularFile(serverFile), "the agent server");
    server.webhook =
        StdioClient.MAPPER.readTree(Files.readString(serverFile)).path("webhook_port").asInt();
    server.token = Files.readString(home.resolve("config").resolve("webhook-token")).strip();
    AgentServerBench.await(
        () -> {
          try {
            server.health();
            return true;
          } catch (IOException e) {
            return false;
          }
        },
        "the webhook");
    return server;
  }

  /**
   * Writes an executable program of the command backend to {@code path}: it reads its turn, marks
   * it on the FIFO, and ends the turn completed with {@code result}.
   */
  Path program(Path path, String result) throws IOException {
    Files.writeString(
        path,
        "#!/usr/bin/env bash\n"
            + "IFS= read -r turn\n"
            + "printf 'turn\\n' > "
            + fifo
            + "\n"
            + "printf '%s\\n' '{\"type\":\"end\",\"status\":\"completed\",\"result\":\""
            + result
            + "\"}'\n");
    path.toFile().setExecutable(true);
    return path;
  }

  /** A new session of the command backend running {@code program} in {@code dir}: its id. */
  String session(Path program, Path dir) throws Exception {
    ObjectNode create = StdioClient.MAPPER.createObjectNode().put("backend", "command");
    create.putArray("program").add(program.toString());
    create.put("working_dir", dir.toString());
    return api("/api/sessions/create", create).path("id").asString();
  }

  /** Forgets the marks so far. */
  void clearMarks() {
    marks.clear();
  }

  /** The time ({@link System#nanoTime}) of the next turn read by a program. */
  long mark() throws InterruptedException, IOException {
    Long at = marks.poll(LIMIT.toSeconds(), TimeUnit.SECONDS);
    if (at == null) {
      throw new IOException("no turn started within " + LIMIT.toSeconds() + " s");
    }
    return at;
  }

  /** Reads the FIFO on a thread of its own; this process also holds it open, so it never ends. */
  private void listen() throws IOException, InterruptedException {
    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
      throw new IOException("mkfifo failed");
    }
    Thread reader =
        new Thread(
            () -> {
              try (InputStream in = new FileInputStream(fifo.toFile())) {
                int b;
                while ((b = in.read()) >= 0) {
                  if (b == '\n') {
                    marks.add(System.nanoTime());
                  }
                }
              } catch (IOException e) {
                AgentServerBench.progress("the FIFO failed: " + e.getMessage());
              }
            },
            "fifo");
    reader.setDaemon(true);
    reader.start();
    @SuppressWarnings("resource") // held open for the whole run
    OutputStream keep = new FileOutputStream(fifo.toFile());
    keep.flush();
  }

  /** Waits until {@code session} has no turn running. */
  void awaitIdle(String session) throws Exception {
    ObjectNode show = StdioClient.MAPPER.createObjectNode().put("session", session);
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (!api("/api/sessions/show", show).path("state").asString().equals("idle")) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the session's turn did not end");
      }
      Thread.sleep(2);
    }
  }

  /** {@code GET /health}: its nanoseconds. */
  long health() throws IOException, InterruptedException {
    long start = System.nanoTime();
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(uri("/health")).timeout(LIMIT).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("GET /health answered " + response.statusCode());
    }
    return System.nanoTime() - start;
  }

  /** POSTs {@code body} with the token; the answer's {@code result} (its last line's). */
  JsonNode api(String path, ObjectNode body) throws Exception {
    HttpResponse<String> response = post(path, body, Map.of("x-cortex-token", token));
    String[] lines = response.body().strip().split("\n");
    JsonNode answer = StdioClient.MAPPER.readTree(lines[lines.length - 1]);
    if (!answer.has("result")) {
      throw new IOException(path + " failed: " + response.body());
    }
    return answer.path("result");
  }

  HttpResponse<String> post(String path, ObjectNode body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri(path))
            .timeout(LIMIT)
            .header("Content-Type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    StdioClient.MAPPER.writeValueAsString(body), StandardCharsets.UTF_8));
    headers.forEach(request::header);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + webhook + path);
  }
}
