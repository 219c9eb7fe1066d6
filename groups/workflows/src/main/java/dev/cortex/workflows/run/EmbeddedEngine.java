package dev.cortex.workflows.run;

import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ProcessObserver;
import dev.cortex.workflows.activity.RunScope;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.manifest.Step;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded engine: runs a workflow on a thread of this process, one step after another. Each
 * step's result is committed to SQLite, and the trace file replaced, before the next step starts; a
 * run whose process dies is found by {@link RunStore#sweep} and can be resumed from its first step
 * that did not complete, once what is left of its processes (their groups are recorded with the
 * run) has been ended. A run is cancelled in this process by interrupting it, from another process
 * through the run's row, which this engine looks at every {@value #CANCEL_POLL_MS} ms while it runs
 * anything.
 */
public final class EmbeddedEngine implements Engine {
  public static final String NAME = "embedded";

  private static final Logger log = LoggerFactory.getLogger(EmbeddedEngine.class);

  /** How often the rows of runs in progress are read for cancellations other processes asked. */
  static final long CANCEL_POLL_MS = 200;

  private static final ScheduledExecutorService WATCHER =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cortex-run-cancels");
            thread.setDaemon(true);
            return thread;
          });

  private final RunStore store;
  private final TraceFiles traces;
  private final StepRunner steps;
  private final Clock clock;
  private final AtomicInteger running = new AtomicInteger();
  private final ThreadFactory threads;
  private final Map<String, Execution> active = new ConcurrentHashMap<>();
  private final AtomicReference<java.util.concurrent.ScheduledFuture<?>> watching =
      new AtomicReference<>();

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
    // Nothing of the interrupted attempt may run beside its next one.
    endSurvivors(runId);
    RunRecord record = store.load(runId).orElseThrow().record();
    int first = 0;
    while (first < record.steps().size() && record.steps().get(first).status().done()) {
      first++;
    }
    return launch(new Execution(record, manifest, first), listener);
  }

  @Override
  public void cancel(String runId, RunCancellation cancellation) {
    Execution execution = active.get(runId);
    if (execution != null) {
      execution.cancel(cancellation);
      return;
    }
    store.sweep();
    RunRecord run =
        store
            .load(runId)
            .orElseThrow(() -> new IllegalArgumentException("no run " + runId))
            .record();
    boolean stopped =
        run.status() == RunStatus.INTERRUPTED
            || run.status() == RunStatus.RUNNING && store.ownedBy(runId, RunStore.Owner.current());
    if (stopped) {
      // No thread runs it: this process stopped it as it exits, or its process died.
      cancelStopped(run, cancellation);
    } else if (run.status() == RunStatus.RUNNING) {
      // Another live process runs it and sees the request within its next look.
      store.requestCancel(runId, cancellation);
    } else {
      throw new IllegalStateException("run " + runId + " is " + run.status().wire());
    }
  }

  /** Ends as cancelled a run no thread runs: what is left of its processes first. */
  private void cancelStopped(RunRecord run, RunCancellation cancellation) {
    // A step with a process group on record was in flight when the run's process stopped.
    int cut =
        store.groups().of(run.runId()).stream()
            .mapToInt(RunGroups.Group::position)
            .min()
            .orElse(-1);
    endSurvivors(run.runId());
    long millis = 0;
    for (StepRecord step : run.steps()) {
      millis += step.durationMs() == null ? 0 : step.durationMs();
    }
    RunRecord cancelled = run.cancelled(clock.instant().toString(), millis, cancellation, cut);
    if (store.cancelStopped(cancelled, cut)) {
      traces.write(cancelled);
    }
  }

  /** Ends what is left of the process groups recorded for {@code runId}, and forgets them. */
  private void endSurvivors(String runId) {
    for (RunGroups.Group group : store.groups().of(runId)) {
      int ended = Processes.endGroup(group.groupId(), group.leaderStarted());
      if (ended > 0) {
        log.info(
            "run {}: ended {} process(es) left by step {} (group {})",
            runId,
            ended,
            group.position() + 1,
            group.groupId());
      }
      store.groups().forget(runId, group.groupId());
    }
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
    String runId = execution.run.runId();
    Thread thread =
        threads.newThread(
            () -> {
              try {
                RunRecord ended = execution.run(listener);
                active.remove(runId);
                done.complete(ended);
              } catch (Throwable e) {
                active.remove(runId);
                done.completeExceptionally(e);
              } finally {
                synchronized (running) {
                  running.decrementAndGet();
                  running.notifyAll();
                }
              }
            });
    execution.thread = thread;
    active.put(runId, execution);
    watchForCancels();
    thread.start();
    return RunHandle.of(runId, done, cancellation -> cancel(runId, cancellation));
  }

  /** Starts looking for cancellations asked by other processes, once. */
  private void watchForCancels() {
    if (watching.get() != null) {
      return;
    }
    java.util.concurrent.ScheduledFuture<?> task =
        WATCHER.scheduleWithFixedDelay(
            this::takeCancelRequests, CANCEL_POLL_MS, CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
    if (!watching.compareAndSet(null, task)) {
      task.cancel(false);
    }
  }

  private void takeCancelRequests() {
    if (active.isEmpty()) {
      return;
    }
    try {
      store
          .cancelRequests(active.keySet())
          .forEach(
              (runId, cancellation) -> {
                Execution execution = active.get(runId);
                if (execution != null) {
                  execution.cancel(cancellation);
                }
              });
    } catch (RuntimeException e) {
      log.debug("could not look for cancellations", e);
    }
  }

  /** One run in progress: its record as it stands and where it goes next. */
  private final class Execution {
    private RunRecord run;
    private final Manifest manifest;
    private final int first;
    private final LiveTrace trace = new LiveTrace(traces);
    private final AtomicReference<RunCancellation> cancellation = new AtomicReference<>();
    private volatile Thread thread;

    /** Stops the run: its thread is interrupted, which ends the running step's processes. */
    void cancel(RunCancellation asked) {
      if (cancellation.compareAndSet(null, asked)) {
        log.info("run {}: {}", run.runId(), asked.describe());
        Thread running = thread;
        if (running != null) {
          running.interrupt();
        }
      }
    }

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
      int cut = -1;
      try (RunScope scope = new RunScope()) {
        for (int position = first; position < manifest.steps().size(); position++) {
          if (cancellation.get() != null) {
            break;
          }
          Step step = manifest.steps().get(position);
          current = step.id();
          StepRecord record =
              steps.run(step, manifest, context, scope, recording(position, listener));
          if (cancellation.get() != null && record.status() == StepStatus.FAILED) {
            // The step was cut short: its processes ended with the interrupt.
            Thread.interrupted();
            run = run.withStep(position, record);
            cut = position;
            break;
          } else if (record.status() == StepStatus.FAILED && Processes.shuttingDown()) {
            // The JVM ends its processes as it exits: the step did not fail, it was stopped.
            // Leave the run as it stands (interrupted, resumable), unless it is cancelled now.
            log.info("run {} stopped at step '{}' as the process exits", run.runId(), step.id());
            return run;
          }
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
        log.error("run {} stopped: {}", run.runId(), e.toString());
        error =
            new RunRecord.RunError(
                current,
                "engine",
                "the engine could not record the run's progress; see the server log");
      }
      Thread.interrupted();
      long millis = (System.nanoTime() - started) / 1_000_000 + priorMillis;
      RunCancellation cancelled = cancellation.get();
      if (cancelled != null && error == null) {
        run = run.cancelled(clock.instant().toString(), millis, cancelled, cut);
        if (cut >= 0) {
          store.saveStep(run, cut);
        }
      } else {
        run = run.ended(clock.instant().toString(), millis, error);
      }
      store.finish(run);
      trace.finish(run);
      RunRecord ended = run;
      tell(() -> listener.ended(ended));
      return run;
    }

    /**
     * Records the process groups of the step at {@code position} while they run, and passes their
     * output to {@code listener} as it comes.
     */
    private ProcessObserver recording(int position, RunListener listener) {
      String runId = run.runId();
      String stepId = manifest.steps().get(position).id();
      return new ProcessObserver() {
        @Override
        public dev.cortex.process.OutputListener output() {
          return (stream, bytes, offset, length) ->
              tell(() -> listener.stepOutput(stepId, bytes, offset, length));
        }

        @Override
        public void started(RunningProcess process) {
          if (process.groupId() > 0) {
            store
                .groups()
                .record(
                    runId, new RunGroups.Group(process.groupId(), position, process.startedAt()));
          }
        }

        @Override
        public void ended(RunningProcess process) {
          if (process.groupId() > 0) {
            store.groups().forget(runId, process.groupId());
          }
        }
      };
    }

    /** Listeners hear of the run; their failures (a client gone away) never stop it. */
    private void tell(Runnable notice) {
      try {
        notice.run();
      } catch (RuntimeException e) {
        log.warn("a listener of run {} failed: {}", run.runId(), e.toString());
      }
    }
  }
}
