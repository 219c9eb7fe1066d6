package dev.cortex.bench;

import dev.cortex.base.Json;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.TraceFiles;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Replays the persistence of a finished run under a new run id, in the engine's order: after each
 * step, {@code RunStore.saveStep}, then {@code TraceFiles.write}, the run record growing by one
 * completed step. Only those calls are timed (and, apart from them, the trace's JSON alone);
 * creating the run, building the records and finishing it are not.
 */
final class EngineReplay {
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final RunStore store;
  private final TraceFiles traces;
  private int count;
  private long sink;

  EngineReplay(RunStore store, TraceFiles traces) {
    this.store = store;
    this.traces = traces;
  }

  /**
   * What one replay measured.
   *
   * @param sqlite all the steps' commits together
   * @param writeNanos each step's trace write (empty without traces)
   * @param jsonNanos each step's serialisation of the run record as the trace write does it, timed
   *     apart from the write (empty without traces)
   */
  record Replay(long sqlite, long[] writeNanos, long[] jsonNanos) {}

  /**
   * Replays the persistence of {@code done}, stored with {@code manifest} as its manifest text;
   * without {@code traces}, the commits alone.
   */
  Replay persist(RunRecord done, String manifest, boolean withTraces) {
    int n = withTraces ? done.steps().size() : 0;
    List<StepRecord> steps = new ArrayList<>();
    for (StepRecord step : done.steps()) {
      steps.add(StepRecord.pending(step.id(), step.kind()));
    }
    String runId = nextId();
    RunRecord run = record(runId, done, RunStatus.RUNNING, steps, 0);
    if (!store.create(run, manifest, RunStore.Owner.current())) {
      throw new IllegalStateException("run id " + runId + " is taken");
    }
    if (withTraces) {
      traces.write(run);
    }
    long sqlite = 0;
    long[] writes = new long[n];
    long[] json = new long[n];
    for (int i = 0; i < steps.size(); i++) {
      steps.set(i, done.steps().get(i));
      run = record(runId, done, RunStatus.RUNNING, steps, i + 1);
      long before = System.nanoTime();
      store.saveStep(run, i);
      long saved = System.nanoTime();
      sqlite += saved - before;
      if (withTraces) {
        traces.write(run);
        long written = System.nanoTime();
        sink += Json.writePretty(run).length();
        json[i] = System.nanoTime() - written;
        writes[i] = written - saved;
      }
    }
    store.finish(record(runId, done, RunStatus.SUCCEEDED, steps, steps.size()));
    return new Replay(sqlite, writes, json);
  }

  private static RunRecord record(
      String runId, RunRecord done, RunStatus status, List<StepRecord> steps, int completed) {
    boolean ended = status != RunStatus.RUNNING;
    return RunRecord.builder(runId, status)
        .workflow(done.workflow())
        .version(done.version())
        .source(done.source())
        .parameters(done.parameters())
        .engine(done.engine())
        .startedAt(done.startedAt())
        .ended(ended ? done.endedAt() : null, ended ? done.durationMs() : null)
        .stepsTotal(steps.size())
        .stepsCompleted(completed)
        .steps(steps)
        .build();
  }

  /**
   * A fresh run id of the engine's shape ({@code EmbeddedEngine.newRunId} is package-private): the
   * time stamp and a counter, so that replays never collide.
   */
  private String nextId() {
    count++;
    return ID_TIME.format(Instant.now()) + String.format(Locale.ROOT, "-b%07d", count);
  }
}
