package dev.cortex.bench;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The outcome of one run.
 *
 * @param at when the run started
 * @param options the settings it ran with
 * @param client the JVM running the harness
 * @param host the machine
 * @param load the machine's load averages (1, 5, 15 minutes) when the run started and ended
 * @param servers one entry per server, cortex first
 */
record Results(
    Instant at,
    Options options,
    String client,
    String host,
    String load,
    List<ServerResult> servers) {

  ServerResult cortex() {
    return servers.get(0);
  }

  ServerResult reference() {
    return servers.get(1);
  }

  /**
   * What one server measured.
   *
   * @param server the server and its call
   * @param runtime what ran behind its command
   * @param startNanos spawn to {@code initialize} result, per start, in the order measured
   * @param callNanos {@code tools/call} round trips of one process, in the order sent
   * @param seen anything noteworthy it did
   */
  record ServerResult(
      Server server,
      ServerRuntime runtime,
      long[] startNanos,
      long[] callNanos,
      Observations seen) {

    Stats start() {
      return Stats.of(startNanos);
    }

    /** All calls, from the first one on a fresh process. */
    Stats cold() {
      return Stats.of(callNanos);
    }

    /** The calls after the first {@code warmup}. */
    Stats warm(int warmup) {
      return Stats.of(Arrays.copyOfRange(callNanos, warmup, callNanos.length));
    }
  }
}
