package dev.cortex.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

  private BenchServer server;

  private WakeBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(args, USAGE, 200, 20, "cortex-wake-bench", new WakeBench()::run);
    System.exit(0);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    // Wakes of one waitpoint are capped per hour; each signal here has a waitpoint of its own, and
    // the cap is raised anyway so that it cannot shape the figures.
    server =
        BenchServer.start(
            launcher, work, "[waitpoints]\nmax_wakes_per_hour = 1000\n", Map.of(), children);
    Path agent = server.program(work.resolve("agent.sh"), "woken");
    String session = server.session(agent, work);

    AgentServerBench.progress("warming up: " + warmup + " signals ...");
    for (int i = 0; i < warmup; i++) {
      wake(session);
      local(agent);
      server.health();
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
      floor[i] = server.health();
    }
    return report(
        calls, warmup, Stats.of(woken), Stats.of(answered), Stats.of(spawned), Stats.of(floor));
  }

  /** One signal to a fresh waitpoint: nanoseconds until the turn started, and until answered. */
  private long[] wake(String session) throws Exception {
    ObjectNode create = StdioClient.MAPPER.createObjectNode();
    create.put("session_id", session).put("label", "bench").put("intent", "measure the wake");
    JsonNode created = server.api("/webhook/wait/create", create);
    ObjectNode signal = StdioClient.MAPPER.createObjectNode();
    signal.put("id", created.path("waitpoint").path("id").asString());
    signal.put("secret", created.path("secret").asString());
    signal.put("status", "ok").put("message", "done");
    server.clearMarks();
    long start = System.nanoTime();
    HttpResponse<String> response = server.post("/webhook/signal", signal, Map.of());
    long answered = System.nanoTime();
    if (response.statusCode() != 200 || !response.body().contains("\"fired\":true")) {
      throw new IOException("the signal was not taken: " + response.body());
    }
    long turn = server.mark();
    server.awaitIdle(session);
    return new long[] {turn - start, answered - start};
  }

  /** The same program started here and handed a turn line, until it has read it. */
  private long local(Path agent) throws Exception {
    server.clearMarks();
    long start = System.nanoTime();
    Process process = new ProcessBuilder(agent.toString()).redirectErrorStream(true).start();
    try {
      try (OutputStream in = process.getOutputStream()) {
        in.write("{\"type\":\"turn\"}\n".getBytes(StandardCharsets.UTF_8));
      }
      long turn = server.mark();
      process.getInputStream().readAllBytes();
      process.waitFor();
      return turn - start;
    } finally {
      process.destroyForcibly();
    }
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
