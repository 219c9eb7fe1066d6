package dev.cortex.workflows.run;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/** A started run: its id at once, its final record when it ends, and a way to stop it. */
public interface RunHandle {
  String runId();

  /** Blocks until the run ends and returns its final record. */
  RunRecord await() throws InterruptedException;

  /** Stops the run as {@link Engine#cancel} does; returns at once. */
  void cancel(RunCancellation cancellation);

  /** The handle of run {@code runId}, which ends when {@code done} completes. */
  static RunHandle of(
      String runId, CompletableFuture<RunRecord> done, Consumer<RunCancellation> canceller) {
    return new RunHandle() {
      @Override
      public String runId() {
        return runId;
      }

      @Override
      public RunRecord await() throws InterruptedException {
        try {
          return done.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IllegalStateException("run " + runId + " failed inside the engine", e);
        }
      }

      @Override
      public void cancel(RunCancellation cancellation) {
        canceller.accept(cancellation);
      }
    };
  }
}
