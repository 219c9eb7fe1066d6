package dev.cortex.bench;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.storage.Database;
import dev.cortex.workflows.WorkflowsGroup;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.RunScope;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.run.EmbeddedEngine;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunRequest;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.StepRunner;
import dev.cortex.workflows.run.StepStatus;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.run.WorkflowRef;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The workflow engine benchmark: generated workflows of no-op {@code transform} steps run durably
 * by the embedded engine (each step committed to SQLite, the trace file replaced after each step)
 * over a real database in a temporary Cortex home, next to the parts of a step measured on their
 * own in the same rounds: the steps on a step runner without persistence, the jq evaluations in a
 * plain loop, the SQLite commits, the trace file writes.
 */
public final class EngineBench {
  /** The manifest text stored with the replays that leave the manifest's size out. */
  private static final String ONE_LINE = "# a stand-in for the manifest\n";

  private final EngineOptions options;
  private final PrintStream err;
  private final RunStore store;
  private final TraceFiles traces;
  private final EmbeddedEngine engine;
  private final StepRunner runner;
  private final EngineReplay replays;
  private long sink;

  private EngineBench(EngineOptions options, PrintStream err, CortexHome home, Database database) {
    this.options = options;
    this.err = err;
    this.store = new RunStore(() -> database);
    this.traces = new TraceFiles(home);
    this.replays = new EngineReplay(store, traces);
    Activities activities = Activities.standard();
    ActivityEnvironment environment = new ActivityEnvironment(home, Map.of(), Clock.systemUTC());
    this.engine = new EmbeddedEngine(store, traces, activities, environment);
    this.runner = new StepRunner(activities, environment);
  }

  public static void main(String[] args) {
    System.exit(run(System.out, System.err, args));
  }

  /** Runs the benchmark; 0 when it ran, 1 when it failed, 2 on bad usage. */
  static int run(PrintStream out, PrintStream err, String... args) {
    EngineOptions options;
    try {
      options = EngineOptions.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = e.getMessage().isEmpty();
      if (!help) {
        err.println("bench: " + e.getMessage());
      }
      err.println(EngineOptions.USAGE);
      return help ? 0 : 2;
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("cortex-engine-bench-");
      EngineReport.print(measure(options, err, dir), out);
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("bench: failed: " + e);
      e.printStackTrace(err);
      return 1;
    } finally {
      Scratch.delete(dir, err);
    }
  }

  private static EngineResults measure(EngineOptions options, PrintStream err, Path dir) {
    Instant at = Instant.now();
    String loadBefore = Environment.loadAverage();
    CortexHome home = new CortexHome(dir, dir.resolve("data"));
    List<EngineResults.Case> cases = new ArrayList<>();
    try (Database database = new Database(home, List.of(WorkflowsGroup.storageArea()))) {
      EngineBench bench = new EngineBench(options, err, home, database);
      for (int steps : options.lengths()) {
        for (EngineWorkflow.Variant variant : EngineWorkflow.Variant.values()) {
          cases.add(bench.measure(EngineWorkflow.of(variant, steps)));
        }
      }
    }
    String load = "at start " + loadBefore + ", at end " + Environment.loadAverage();
    return new EngineResults(
        at,
        options,
        Environment.client(),
        Environment.jvmFlags(),
        Environment.host(),
        load,
        Environment.fileSystem(dir),
        cases);
  }

  /**
   * Warm-up rounds, then the measured ones; each round runs the workflow on the engine, then its
   * steps on a step runner alone, then its expressions in a plain loop, then replays the run's
   * SQLite commits and trace writes, and its commits alone with a one-line manifest.
   */
  private EngineResults.Case measure(EngineWorkflow workflow) {
    int n = workflow.steps();
    int rounds = options.warmup() + options.repeats();
    int repeats = options.repeats();
    long[] wall = new long[repeats];
    long[] steps = new long[repeats];
    long[] stepRunner = new long[repeats];
    long[] jq = new long[repeats];
    long[] sqlite = new long[repeats];
    long[] sqliteSmall = new long[repeats];
    long[] trace = new long[repeats];
    long[] stepHead = new long[repeats];
    long[] stepTail = new long[repeats];
    long[] traceHead = new long[repeats];
    long[] traceTail = new long[repeats];
    long[] jsonHead = new long[repeats];
    long[] jsonTail = new long[repeats];
    long traceBytes = 0;
    for (int round = 0; round < rounds; round++) {
      int r = round - options.warmup();
      progress(
          workflow.name()
              + (r < 0 ? ": warm-up " + (round + 1) : ": round " + (r + 1) + "/" + repeats));
      System.gc();
      EngineRun run = runOnEngine(workflow);
      long unpersisted = runnerLoop(workflow);
      long loop = jqLoop(workflow);
      EngineReplay.Replay replay = replays.persist(run.record(), workflow.yaml(), true);
      EngineReplay.Replay small = replays.persist(run.record(), ONE_LINE, false);
      if (r < 0) {
        continue;
      }
      wall[r] = run.wall();
      steps[r] = sum(run.stepNanos());
      stepRunner[r] = unpersisted;
      jq[r] = loop;
      sqlite[r] = replay.sqlite();
      sqliteSmall[r] = small.sqlite();
      trace[r] = sum(replay.writeNanos());
      stepHead[r] = head(run.stepNanos());
      stepTail[r] = tail(run.stepNanos());
      traceHead[r] = head(replay.writeNanos());
      traceTail[r] = tail(replay.writeNanos());
      jsonHead[r] = head(replay.jsonNanos());
      jsonTail[r] = tail(replay.jsonNanos());
      traceBytes = size(traces.file(run.record().runId()));
    }
    return new EngineResults.Case(
        workflow.variant(),
        n,
        wall,
        steps,
        stepRunner,
        jq,
        sqlite,
        sqliteSmall,
        trace,
        stepHead,
        stepTail,
        traceHead,
        traceTail,
        jsonHead,
        jsonTail,
        traceBytes,
        workflow.yaml().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
  }

  /** A run on the engine: its wall time, each step's time (stepEnded to stepEnded), its record. */
  private record EngineRun(long wall, long[] stepNanos, RunRecord record) {}

  private EngineRun runOnEngine(EngineWorkflow workflow) {
    RunRequest request =
        new RunRequest(
            workflow.manifest(),
            workflow.yaml(),
            new WorkflowRef("path", "engine-bench.yaml", "engine-bench.yaml"),
            EngineWorkflow.PARAMETERS);
    StepClock clock = new StepClock(workflow.steps());
    RunRecord record;
    long start = System.nanoTime();
    try {
      record = engine.start(request, clock).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while a run was in progress", e);
    }
    long wall = System.nanoTime() - start;
    if (record.status() != RunStatus.SUCCEEDED) {
      throw new IllegalStateException(
          "run " + record.runId() + " of " + workflow.name() + " failed: " + record.error());
    }
    JsonNode last = record.steps().get(record.steps().size() - 1).output();
    if (!last.equals(Json.tree(EngineWorkflow.PARAMETERS.get("n")))) {
      throw new IllegalStateException("the last step of " + workflow.name() + " returned " + last);
    }
    return new EngineRun(wall, clock.durations(), record);
  }

  /** Notes when the run's steps start and end, on the run's thread. */
  private static final class StepClock implements RunListener {
    private final long[] ends;
    private long planned;

    StepClock(int steps) {
      this.ends = new long[steps];
    }

    @Override
    public void planned(RunRecord run) {
      planned = System.nanoTime();
    }

    @Override
    public void stepEnded(RunRecord run, int position) {
      ends[position] = System.nanoTime();
    }

    /** Each step's duration, its result committed and its trace written included. */
    long[] durations() {
      long[] durations = new long[ends.length];
      for (int i = 0; i < ends.length; i++) {
        durations[i] = ends[i] - (i == 0 ? planned : ends[i - 1]);
      }
      return durations;
    }
  }

  /**
   * The workflow's steps run by a {@code StepRunner} as the engine runs them, outputs put into the
   * context, but nothing persisted: what a step costs before the engine records it.
   */
  private long runnerLoop(EngineWorkflow workflow) {
    Manifest manifest = workflow.manifest();
    Jq.Context context = Jq.Context.of(Json.tree(EngineWorkflow.PARAMETERS));
    long start = System.nanoTime();
    try (RunScope scope = new RunScope()) {
      for (Step step : manifest.steps()) {
        StepRecord record = runner.run(step, manifest, context, scope);
        if (record.status() != StepStatus.SUCCEEDED) {
          throw new IllegalStateException("step " + step.id() + " failed: " + record.error());
        }
        context.put(step.id(), record.output());
      }
    }
    return System.nanoTime() - start;
  }

  /** The workflow's expressions in a plain loop, each output put into the context for the next. */
  private long jqLoop(EngineWorkflow workflow) {
    Jq.Context context = Jq.Context.of(Json.tree(EngineWorkflow.PARAMETERS));
    String[] ids = workflow.ids();
    String[] expressions = workflow.expressions();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < expressions.length; i++) {
        JsonNode output = context.evaluate(expressions[i]);
        context.put(ids[i], output);
        sink += output.asInt();
      }
    } catch (Jq.JqException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
    return System.nanoTime() - start;
  }

  private static long sum(long[] nanos) {
    long sum = 0;
    for (long value : nanos) {
      sum += value;
    }
    return sum;
  }

  /** The mean of the first tenth of {@code nanos} (at least one sample). */
  private static long head(long[] nanos) {
    int window = Math.max(1, nanos.length / 10);
    long sum = 0;
    for (int i = 0; i < window; i++) {
      sum += nanos[i];
    }
    return sum / window;
  }

  /** The mean of the last tenth of {@code nanos} (at least one sample). */
  private static long tail(long[] nanos) {
    int window = Math.max(1, nanos.length / 10);
    long sum = 0;
    for (int i = nanos.length - window; i < nanos.length; i++) {
      sum += nanos[i];
    }
    return sum / window;
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void progress(String message) {
    err.println("bench: " + message);
  }
}
