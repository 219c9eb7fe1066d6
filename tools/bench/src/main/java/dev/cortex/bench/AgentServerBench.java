package dev.cortex.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the harnesses that start a real {@code cortex server} share: their flags ({@code --calls},
 * {@code --warmup}, {@code --launcher}), a scratch directory and the child processes ended at exit,
 * waiting for something to come up, and a report row in milliseconds.
 */
final class AgentServerBench {
  private AgentServerBench() {}

  /** One measurement, given the launcher, a scratch directory and where to list its children. */
  interface Body {
    String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
        throws Exception;
  }

  /** Parses the flags, runs {@code body}, prints its report, and cleans up. */
  static void main(String[] args, String usage, int calls, int warmup, String scratch, Body body)
      throws Exception {
    Map<String, String> flags;
    try {
      flags = Flags.parse(args, Set.of("--calls", "--warmup", "--launcher"));
      calls = Flags.count(flags, "--calls", calls, 1);
      warmup = Flags.count(flags, "--warmup", warmup, 0);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        System.err.println("bench: " + e.getMessage());
      }
      System.err.println(usage);
      System.exit(e.getMessage().isEmpty() ? 0 : 2);
      return;
    }
    Path launcher = Path.of(flags.getOrDefault("--launcher", "bin/cortex")).toAbsolutePath();
    Path work = Files.createTempDirectory(scratch);
    List<Process> children = new ArrayList<>();
    try {
      System.out.print(body.run(launcher, work, calls, warmup, children));
    } finally {
      for (Process child : children) {
        child.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      }
      Scratch.delete(work, System.err);
    }
  }

  /** Starts a child with {@code env} added, its output to {@code log}. */
  static Process start(List<String> command, Map<String, String> env, Path log) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    return builder.start();
  }

  interface Check {
    boolean done() throws IOException, InterruptedException;
  }

  /** Waits up to 5 minutes for {@code check}, which names {@code what} when it never comes. */
  static void await(Check check, String what) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (!check.done()) {
      if (System.nanoTime() > deadline) {
        throw new IOException(what + " did not come up within 5 minutes");
      }
      Thread.sleep(50);
    }
  }

  /** A row of {@code | what | p50 | p90 | p99 | max | mean |} in milliseconds. */
  static void row(StringBuilder out, String what, Stats stats) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
            what,
            stats.p50() / 1e6,
            stats.p90() / 1e6,
            stats.p99() / 1e6,
            stats.max() / 1e6,
            stats.mean() / 1e6));
  }

  static void progress(String message) {
    System.err.println("bench: " + message);
  }
}
