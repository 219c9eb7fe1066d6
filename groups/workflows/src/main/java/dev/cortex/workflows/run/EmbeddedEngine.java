package dev.cortex.workflows.run;

import dev.cortex.workflows.Jq;
import dev.cortex.workflows.Manifest;
import dev.cortex.workflows.ManifestException;
import dev.cortex.workflows.ManifestLoader;
import dev.cortex.workflows.Step;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded engine: runs a workflow on a thread of this process, one step after another. Each
 * step's result is committed to SQLite, and the trace file replaced, before the next step starts; a
 * run whose process dies is found by {@link RunStore#sweep} and can be resumed from its first step
 * that did not complete.
 */
public final class EmbeddedEngine implements Engine {
  public static final String NAME = "embedded";

  private final RunStore store;
  private final TraceFiles traces;
  private final StepRunner steps;
  private final Clock clock;
  private final AtomicInteger running = new AtomicInteger();
  private final ThreadFactory threads;

  public EmbeddedEngine(
      RunStore store, TraceFiles traces, Activities activities, ActivityEnvironment environment) {
    this.store = store;
    this.traces = traces;
    this.clock = environment.clock();
    this.steps = new StepRunner(activities, environment);
    AtomicInteger count = new AtomicInteger();
    this.threads =
        runnable -> {
          Thread thread = new Thread(runnable, "cortex-run-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RunHandle start(RunRequest request, RunListener listener) {
    String startedAt = clock.instant().toString();
    RunRecord run;
    do {
      run = RunRecord.starting(RunIds.next(clock.instant()), request, NAME, startedAt);
    } while (!store.create(run, request.manifestText(), RunStore.Owner.current()));
    traces.write(run);
    return launch(new Execution(run, request.manifest(), 0), listener);
  }

  @Override
  public RunHandle resume(String runId, RunListener listener) {
    RunStore.Stored stored =
        store.load(runId).orElseThrow(() -> new IllegalArgumentException("no run " + runId));
    Manifest manifest;
    try {
      manifest = ManifestLoader.parse(stored.record().source().location(), stored.manifest());
    } catch (ManifestException e) {
      throw new IllegalStateException("the stored manifest of " + runId + " no longer loads", e);
    }
    if (!store.claim(runId, RunStore.Owner.current())) {
      throw new IllegalStateException(
          "run "
              + runId
              + " is "
              + stored.record().status().wire()
              + "; only interrupted or failed runs can be resumed");
    }
    RunRecord record = store.load(runId).orElseThrow().record();
    int first = 0;
    while (first < record.steps().size() && record.steps().get(first).status().done()) {
      first++;
    }
    return launch(new Execution(record, manifest, first), listener);
  }

  @Override
  public boolean busy() {
    return running.get() > 0;
  }

  @Override
  public void awaitIdle() throws InterruptedException {
    synchronized (running) {
      while (running.get() > 0) {
        running.wait();
      }
    }
  }

  private RunHandle launch(Execution execution, RunListener listener) {
    CompletableFuture<RunRecord> done = new CompletableFuture<>();
    running.incrementAndGet();
    Thread thread =
        threads.newThread(
            () -> {
              try {
                done.complete(execution.run(listener));
              } catch (Throwable e) {
                done.completeExceptionally(e);
              } finally {
                synchronized (running) {
                  running.decrementAndGet();
                  running.notifyAll();
                }
              }
            });
    String runId = execution.run.runId();
    thread.start();
    return RunHandle.of(runId, done);
  }

  /** One run in progress: its record as it stands and where it goes next. */
  private final class Execution {
    private RunRecord run;
    private final Manifest manifest;
    private final int first;
    private final LiveTrace trace = new LiveTrace(traces);

    Execution(RunRecord run, Manifest manifest, int first) {
      this.run = run;
      this.manifest = manifest;
      this.first = first;
    }

    RunRecord run(RunListener listener) {
      long started = System.nanoTime();
      long priorMillis = 0;
      Jq.Context context = Jq.Context.of(run.parameters());
      for (int i = 0; i < first; i++) {
        StepRecord done = run.steps().get(i);
        context.put(done.id(), done.output());
        priorMillis += done.durationMs() == null ? 0 : done.durationMs();
      }
      RunRecord planned = run;
      tell(() -> listener.planned(planned));
      RunRecord.RunError error = null;
      String current = null;
      try (dev.cortex.workflows.activity.RunScope scope =
          new dev.cortex.workflows.activity.RunScope()) {
        for (int position = first; position < manifest.steps().size(); position++) {
          Step step = manifest.steps().get(position);
          current = step.id();
          StepRecord record = steps.run(step, manifest, context, scope);
          context.put(step.id(), record.output());
          run = run.withStep(position, record);
          store.saveStep(run, position);
          trace.update(run);
          RunRecord now = run;
          int done = position;
          tell(() -> listener.stepEnded(now, done));
          if (record.status() == StepStatus.FAILED) {
            error =
                new RunRecord.RunError(step.id(), record.error().kind(), record.error().message());
            break;
          }
        }
      } catch (RuntimeException e) {
        // The run's state could not be recorded (the database stayed locked, the disk is full):
        // end it as failed if that much can still be written; else the next sweep finds it.
        System.err.println("cortex: run " + run.runId() + " stopped: " + e);
        error =
            new RunRecord.RunError(
                current,
                "engine",
                "the engine could not record the run's progress; see the server log");
      }
      long millis = (System.nanoTime() - started) / 1_000_000 + priorMillis;
      run = run.ended(clock.instant().toString(), millis, error);
      store.finish(run);
      trace.finish(run);
      RunRecord ended = run;
      tell(() -> listener.ended(ended));
      return run;
    }

    /** Listeners hear of the run; their failures (a client gone away) never stop it. */
    private void tell(Runnable notice) {
      try {
        notice.run();
      } catch (RuntimeException e) {
        System.err.println("cortex: a listener of run " + run.runId() + " failed: " + e);
      }
    }
  }
}
