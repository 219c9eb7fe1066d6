package dev.cortex.workflows.run;

/** A started run: its id at once, its final record when it ends. */
public interface RunHandle {
  String runId();

  /** Blocks until the run ends and returns its final record. */
  RunRecord await() throws InterruptedException;

  /** The handle of run {@code runId}, which ends when {@code done} completes. */
  static RunHandle of(String runId, java.util.concurrent.CompletableFuture<RunRecord> done) {
    return new RunHandle() {
      @Override
      public String runId() {
        return runId;
      }

      @Override
      public RunRecord await() throws InterruptedException {
        try {
          return done.get();
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IllegalStateException("run " + runId + " failed inside the engine", e);
        }
      }
    };
  }
}
