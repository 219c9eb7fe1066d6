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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures how soon a signal wakes its session: from just before {@code POST /webhook/signal} is
 * written to the moment the session's new turn has started, that is, its backend program is running
 * and has read its turn. The program is a small shell script of the {@code command} backend that
 * writes one line to a FIFO the harness reads, so no clock is shared across processes. In the same
 * run, interleaved: starting that same script locally and handing it a turn line (what a turn start
 * costs without the server), and {@code GET /health} on the same webhook (the HTTP floor).
 */
public final class WakeBench {
  static final String USAGE =
      "usage: tools/bench/wake [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured signals (default 200)\n"
          + "  --warmup W    unmeasured signals first (default 20)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private final BlockingQueue<Long> marks = new LinkedBlockingQueue<>();
  private int webhook;
  private String token;

  private WakeBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(args, USAGE, 200, 20, "cortex-wake-bench", new WakeBench()::run);
    System.exit(0);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    Path home = Files.createDirectories(work.resolve("server"));
    // Wakes of one waitpoint are capped per hour; each signal here has a waitpoint of its own, and
    // the cap is raised anyway so that it cannot shape the figures.
    Files.writeString(home.resolve("cortex.toml"), "[waitpoints]\nmax_wakes_per_hour = 1000\n");
    Path fifo = work.resolve("turns.fifo");
    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
      throw new IOException("mkfifo failed");
    }
    Path agent = work.resolve("agent.sh");
    Files.writeString(
        agent,
        "#!/usr/bin/env bash\n"
            + "IFS= read -r turn\n"
            + "printf 'turn\\n' > "
            + fifo
            + "\n"
            + "printf '%s\\n' '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"woken\"}'\n");
    agent.toFile().setExecutable(true);
    listen(fifo);

    AgentServerBench.progress("starting the agent server ...");
    children.add(
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            Map.of("CORTEX_HOME", home.toString()),
            work.resolve("server.log")));
    Path serverFile = home.resolve("data").resolve("server.json");
    AgentServerBench.await(() -> Files.isRegularFile(serverFile), "the agent server");
    webhook =
        StdioClient.MAPPER.readTree(Files.readString(serverFile)).path("webhook_port").asInt();
    token = Files.readString(home.resolve("config").resolve("webhook-token")).strip();
    AgentServerBench.await(
        () -> {
          try {
            health();
            return true;
          } catch (IOException e) {
            return false;
          }
        },
        "the webhook");

    ObjectNode create = StdioClient.MAPPER.createObjectNode().put("backend", "command");
    create.putArray("program").add(agent.toString());
    create.put("working_dir", work.toString());
    String session = api("/api/sessions/create", create).path("id").asString();

    AgentServerBench.progress("warming up: " + warmup + " signals ...");
    for (int i = 0; i < warmup; i++) {
      wake(session);
      local(agent);
      health();
    }
    AgentServerBench.progress(
        "measuring: " + calls + " signals, interleaved with the references ...");
    long[] woken = new long[calls];
    long[] answered = new long[calls];
    long[] spawned = new long[calls];
    long[] floor = new long[calls];
    for (int i = 0; i < calls; i++) {
      long[] w = wake(session);
      woken[i] = w[0];
      answered[i] = w[1];
      spawned[i] = local(agent);
      floor[i] = health();
    }
    return report(
        calls, warmup, Stats.of(woken), Stats.of(answered), Stats.of(spawned), Stats.of(floor));
  }

  /** One signal to a fresh waitpoint: nanoseconds until the turn started, and until answered. */
  private long[] wake(String session) throws Exception {
    ObjectNode create = StdioClient.MAPPER.createObjectNode();
    create.put("session_id", session).put("label", "bench").put("intent", "measure the wake");
    JsonNode created = api("/webhook/wait/create", create);
    ObjectNode signal = StdioClient.MAPPER.createObjectNode();
    signal.put("id", created.path("waitpoint").path("id").asString());
    signal.put("secret", created.path("secret").asString());
    signal.put("status", "ok").put("message", "done");
    marks.clear();
    long start = System.nanoTime();
    HttpResponse<String> response = post("/webhook/signal", signal, Map.of());
    long answered = System.nanoTime();
    if (response.statusCode() != 200 || !response.body().contains("\"fired\":true")) {
      throw new IOException("the signal was not taken: " + response.body());
    }
    long turn = mark();
    awaitIdle(session);
    return new long[] {turn - start, answered - start};
  }

  /** The same program started here and handed a turn line, until it has read it. */
  private long local(Path agent) throws Exception {
    marks.clear();
    long start = System.nanoTime();
    Process process = new ProcessBuilder(agent.toString()).redirectErrorStream(true).start();
    try {
      try (OutputStream in = process.getOutputStream()) {
        in.write("{\"type\":\"turn\"}\n".getBytes(StandardCharsets.UTF_8));
      }
      long turn = mark();
      process.getInputStream().readAllBytes();
      process.waitFor();
      return turn - start;
    } finally {
      process.destroyForcibly();
    }
  }

  private long health() throws IOException, InterruptedException {
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

  private long mark() throws InterruptedException, IOException {
    Long at = marks.poll(LIMIT.toSeconds(), TimeUnit.SECONDS);
    if (at == null) {
      throw new IOException("no turn started within " + LIMIT.toSeconds() + " s");
    }
    return at;
  }

  /** Reads the FIFO on a thread of its own; this process also holds it open, so it never ends. */
  private void listen(Path fifo) throws IOException {
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

  private void awaitIdle(String session) throws Exception {
    ObjectNode show = StdioClient.MAPPER.createObjectNode().put("session", session);
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (!api("/api/sessions/show", show).path("state").asString().equals("idle")) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the session's turn did not end");
      }
      Thread.sleep(2);
    }
  }

  private JsonNode api(String path, ObjectNode body) throws Exception {
    HttpResponse<String> response = post(path, body, Map.of("x-cortex-token", token));
    JsonNode answer = StdioClient.MAPPER.readTree(response.body());
    if (!answer.has("result")) {
      throw new IOException(path + " failed: " + response.body());
    }
    return answer.path("result");
  }

  private HttpResponse<String> post(String path, ObjectNode body, Map<String, String> headers)
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

  static String report(
      int calls, int warmup, Stats woken, Stats answered, Stats spawned, Stats floor) {
    StringBuilder out = new StringBuilder();
    out.append("# A signal waking its session, against starting the same turn locally\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d measured signals after %d warm-up signals, each to a waitpoint of its own, the"
                + " session idle each time; references interleaved.%n%n",
            calls,
            warmup));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(
        out, "POST /webhook/signal → the woken turn's program has read its turn", woken);
    AgentServerBench.row(out, "POST /webhook/signal → its answer", answered);
    AgentServerBench.row(
        out, "local: start the same program, hand it a turn line, until it has read it", spawned);
    AgentServerBench.row(out, "GET /health on the same webhook", floor);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatio of medians: wake / local start = %.2f. Added by the server (signal checked and"
                + " recorded, the wake delivered to the inbox, the turn started) over the local"
                + " start (p50): %.2f ms.%n",
            (double) woken.p50() / spawned.p50(),
            (woken.p50() - spawned.p50()) / 1e6));
    return out.toString();
  }
}
