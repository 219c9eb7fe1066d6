package dev.cortex.bench;

import dev.cortex.bench.EngineResults.Case;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Renders the engine benchmark's results as a few small text tables. */
final class EngineReport {
  private static final double GOAL_MICROS = 1_000;

  private EngineReport() {}

  static void print(EngineResults r, PrintStream out) {
    header(r, out);
    perStep(r.cases(), out);
    shares(r.cases(), out);
    growth(r, out);
  }

  private static void header(EngineResults r, PrintStream out) {
    out.println("Workflow engine benchmark, " + r.at());
    out.println("  harness   " + r.client());
    out.println("  flags     " + (r.jvmFlags().isEmpty() ? "(none)" : r.jvmFlags()));
    out.println("  host      " + r.host());
    out.println("  load      " + r.load());
    out.println("  files     " + r.fileSystem() + ", deleted at the end");
    out.printf(
        Locale.ROOT,
        "  rounds    %d measured after %d warm-up per workflow, one JVM; figures are medians%n",
        r.options().repeats(),
        r.options().warmup());
  }

  /** A case's medians per step, in microseconds. */
  private record PerStep(
      double engine, double runner, double jq, double sqlite, double trace, double rest) {
    static PerStep of(Case c) {
      double engine = c.perStepMicros(c.engine());
      double runner = c.perStepMicros(c.runner());
      double sqlite = c.perStepMicros(c.sqlite());
      double trace = c.perStepMicros(c.trace());
      return new PerStep(
          engine, runner, c.perStepMicros(c.jq()), sqlite, trace, engine - runner - sqlite - trace);
    }
  }

  private static void perStep(List<Case> cases, PrintStream out) {
    out.println();
    out.printf(
        Locale.ROOT,
        "Per step, µs (engine = run wall time / steps; goal: under %,.0f µs a step)%n",
        GOAL_MICROS);
    out.println(
        "  steps  reads           engine  runner      jq  sqlite   trace    rest  engine/jq"
            + "  goal   run ms  fixed ms");
    for (Case c : cases) {
      PerStep p = PerStep.of(c);
      out.printf(
          Locale.ROOT,
          "  %5d  %-14s %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %9.0fx  %-4s %8.1f %9.2f%n",
          c.stepCount(),
          c.variant().reads,
          p.engine(),
          p.runner(),
          p.jq(),
          p.sqlite(),
          p.trace(),
          p.rest(),
          p.engine() / p.jq(),
          p.engine() < GOAL_MICROS ? "met" : "not",
          Case.median(c.engine()) / 1e6,
          Case.median(difference(c.engine(), c.steps())) / 1e6);
    }
    out.println(
        "  runner: StepRunner.run alone, nothing persisted (jq included); jq: Jq in a plain loop"
            + " (evaluate, put);");
    out.println(
        "  sqlite: RunStore.saveStep alone, one commit a step; trace: TraceFiles.write alone;"
            + " rest = engine - runner");
    out.println(
        "  - sqlite - trace; fixed ms: the run's time outside its steps (create, first trace,"
            + " finish, thread).");
  }

  private static void shares(List<Case> cases, PrintStream out) {
    out.println();
    out.println(
        "Where a step's time goes, % of engine (runner-jq: templates, input check, record)");
    out.println("  steps  reads              jq runner-jq  sqlite   trace    rest");
    for (Case c : cases) {
      PerStep p = PerStep.of(c);
      out.printf(
          Locale.ROOT,
          "  %5d  %-14s %6.1f%% %8.1f%% %6.1f%% %6.1f%% %6.1f%%%n",
          c.stepCount(),
          c.variant().reads,
          100 * p.jq() / p.engine(),
          100 * (p.runner() - p.jq()) / p.engine(),
          100 * p.sqlite() / p.engine(),
          100 * p.trace() / p.engine(),
          100 * p.rest() / p.engine());
    }
  }

  private static void growth(EngineResults r, PrintStream out) {
    out.println();
    out.println(
        "Growth within a run: µs a step, first tenth -> last tenth of the steps (median of the"
            + " rounds)");
    out.println(
        "  steps  reads                 engine step           trace write      of which JSON"
            + "  trace file");
    for (Case c : r.cases()) {
      out.printf(
          Locale.ROOT,
          "  %5d  %-14s %s %s %s %11s%n",
          c.stepCount(),
          c.variant().reads,
          headToTail(c.stepHead(), c.stepTail()),
          headToTail(c.traceHead(), c.traceTail()),
          headToTail(c.jsonHead(), c.jsonTail()),
          bytes(c.traceBytes()));
    }
    acrossLengths(r.cases(), out);
    out.println();
    out.println(
        "SQLite commit a step, µs, against the size of the manifest stored in the run's row");
    out.println("  steps  reads           manifest   sqlite  with a 1-line manifest");
    for (Case c : r.cases()) {
      out.printf(
          Locale.ROOT,
          "  %5d  %-14s %9s %8.1f %8.1f%n",
          c.stepCount(),
          c.variant().reads,
          bytes(c.manifestBytes()),
          c.perStepMicros(c.sqlite()),
          c.perStepMicros(c.sqliteSmall()));
    }
  }

  private static String headToTail(long[] head, long[] tail) {
    double first = Case.median(head) / 1e3;
    double last = Case.median(tail) / 1e3;
    return String.format(Locale.ROOT, "%6.0f -> %6.0f (%4.1fx)", first, last, last / first);
  }

  /** Per-step cost of the longest workflow against the shortest, per variant. */
  private static void acrossLengths(List<Case> cases, PrintStream out) {
    for (EngineWorkflow.Variant variant : EngineWorkflow.Variant.values()) {
      List<Case> same = cases.stream().filter(c -> c.variant() == variant).toList();
      Case shortest = null;
      Case longest = null;
      for (Case c : same) {
        if (shortest == null || c.stepCount() < shortest.stepCount()) {
          shortest = c;
        }
        if (longest == null || c.stepCount() > longest.stepCount()) {
          longest = c;
        }
      }
      if (shortest == null || shortest.stepCount() == longest.stepCount()) {
        continue;
      }
      out.printf(
          Locale.ROOT,
          "  %s: %d steps cost %.2fx per step what %d steps cost (engine), trace write %.2fx,"
              + " sqlite %.2fx%n",
          variant.reads,
          longest.stepCount(),
          ratio(longest, shortest, Case::engine),
          shortest.stepCount(),
          ratio(longest, shortest, Case::trace),
          ratio(longest, shortest, Case::sqlite));
    }
  }

  private static double ratio(
      Case longer, Case shorter, java.util.function.Function<Case, long[]> samples) {
    return longer.perStepMicros(samples.apply(longer))
        / shorter.perStepMicros(samples.apply(shorter));
  }

  private static long[] difference(long[] a, long[] b) {
    long[] d = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      d[i] = a[i] - b[i];
    }
    return d;
  }

  private static String bytes(long bytes) {
    return bytes >= 1 << 20
        ? String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20))
        : String.format(Locale.ROOT, "%.0f KiB", bytes / 1024.0);
  }
}
