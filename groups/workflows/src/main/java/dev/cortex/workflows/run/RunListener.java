package dev.cortex.workflows.run;

/**
 * Hears how a run goes, as it goes: the plan when it starts, each step as it completes (after the
 * step's result is durable), the end. Called from the run's thread; must not block for long.
 */
public interface RunListener {
  RunListener NONE = new RunListener() {};

  /** The run is recorded and about to run its first (or first unfinished) step. */
  default void planned(RunRecord run) {}

  /**
   * Output of the step {@code stepId}'s program as it comes (shell steps on the embedded engine),
   * in chunks that may end mid-line; the bytes are valid only during the call. Called on the
   * output's reader thread.
   */
  default void stepOutput(String stepId, byte[] bytes, int offset, int length) {}

  /** Step {@code position} ended (succeeded, failed or skipped) and is durable. */
  default void stepEnded(RunRecord run, int position) {}

  /** The run ended; its trace and index row are written. */
  default void ended(RunRecord run) {}
}
