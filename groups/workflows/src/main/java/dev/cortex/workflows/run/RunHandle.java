package dev.cortex.workflows.run;

/** A started run: its id at once, its final record when it ends. */
public interface RunHandle {
  String runId();

  /** Blocks until the run ends and returns its final record. */
  RunRecord await() throws InterruptedException;
}
