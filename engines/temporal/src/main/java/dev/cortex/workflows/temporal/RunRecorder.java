package dev.cortex.workflows.temporal;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * Local activities that make a run durable on the worker that runs the interpreter: in the run
 * index (SQLite) and the trace file of the worker's {@code CORTEX_HOME}.
 */
@ActivityInterface
public interface RunRecorder {
  /** Records the run (a {@code RunRecord} as JSON) unless this home already has it. */
  @ActivityMethod(name = "CortexRecordStart")
  void begin(String run, String manifest);

  /** Records the step at {@code position} and the run's totals, and replaces the trace file. */
  @ActivityMethod(name = "CortexRecordStep")
  void step(String run, int position);

  /** Records the run's end and writes its final trace. */
  @ActivityMethod(name = "CortexRecordEnd")
  void finish(String run);
}
