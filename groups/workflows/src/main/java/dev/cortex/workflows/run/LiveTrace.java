package dev.cortex.workflows.run;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The trace file of one run while it goes. Each completed step asks for the file to be replaced
 * (atomically) with the run as it stands; the replacement happens on a writer thread, so that a
 * long run's steps do not wait for a file that grows with the run, and when steps complete faster
 * than the file is written only the newest state is written. The step results themselves are
 * durable in SQLite before the next step starts; {@link #finish} writes the final trace before the
 * run's end is reported.
 */
final class LiveTrace {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LiveTrace.class);

  private static final ExecutorService WRITER =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cortex-trace-writer");
            thread.setDaemon(true);
            return thread;
          });

  private final TraceFiles files;
  private final AtomicReference<RunRecord> latest = new AtomicReference<>();
  private final AtomicBoolean queued = new AtomicBoolean();
  private boolean finished;

  LiveTrace(TraceFiles files) {
    this.files = files;
  }

  /** Asks for the file to show {@code run}; returns at once. */
  void update(RunRecord run) {
    latest.set(run);
    if (queued.compareAndSet(false, true)) {
      WRITER.execute(this::drain);
    }
  }

  /** Writes the run's final trace now; no earlier state is written after it. */
  void finish(RunRecord run) {
    latest.set(null);
    write(run, true);
  }

  private void drain() {
    queued.set(false);
    RunRecord run = latest.getAndSet(null);
    if (run != null) {
      try {
        write(run, false);
      } catch (RuntimeException e) {
        log.warn("the trace of run {} was not replaced: {}", run.runId(), e.toString());
      }
    }
  }

  private synchronized void write(RunRecord run, boolean last) {
    if (finished) {
      return;
    }
    files.write(run);
    finished = last;
  }
}
