package dev.cortex.workflows.run;

/**
 * Runs workflows. The embedded engine runs them in this process with each step's result durable in
 * SQLite; a distributed engine runs them on a cluster. Either way the run is recorded before {@link
 * #start} returns, listeners hear of each step as it completes, and the trace ends up in {@code
 * $CORTEX_HOME/runs/} and the run index.
 */
public interface Engine {
  /** The engine's name as {@code status} reports it, e.g. {@code embedded}. */
  String name();

  /**
   * What {@code status} reports of the engine: its name, whether it is reachable and, for a
   * cluster, where it is. Answers within a few seconds whatever the cluster does.
   */
  default java.util.Map<String, Object> describe() {
    java.util.Map<String, Object> described = new java.util.LinkedHashMap<>();
    described.put("name", name());
    described.put("reachable", true);
    return described;
  }

  /**
   * Why the engine cannot take runs now (its cluster is out of reach), as a sentence that says what
   * to do; empty when it can. Asked before every check and run.
   */
  default java.util.Optional<String> unavailable() {
    return java.util.Optional.empty();
  }

  /** Starts a run and returns at once; the run goes on whether or not anyone awaits it. */
  RunHandle start(RunRequest request, RunListener listener);

  /**
   * Resumes an interrupted (or failed) run from its first step that did not complete; completed
   * steps are not run again.
   *
   * @throws IllegalStateException when the run cannot be resumed (it is running or succeeded)
   */
  RunHandle resume(String runId, RunListener listener);

  /**
   * Stops a run as {@code cancellation} says: the running step's processes are ended, no later step
   * starts, and the run ends {@code cancelled} with the cancellation in its trace. Returns at once;
   * the run's record shows when it has ended. A run of this engine that no process runs any more
   * (interrupted) is ended as cancelled here, after what is left of its processes.
   *
   * @throws IllegalStateException when the run is not one this engine can stop
   */
  void cancel(String runId, RunCancellation cancellation);

  /** Whether runs this engine started in this process are still going on. */
  boolean busy();

  /** Waits until every run this engine started in this process has ended. */
  void awaitIdle() throws InterruptedException;
}
