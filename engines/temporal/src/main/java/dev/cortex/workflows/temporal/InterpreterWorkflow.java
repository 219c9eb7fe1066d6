package dev.cortex.workflows.temporal;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The one workflow type Cortex runs on Temporal: it interprets a manifest, running each step's
 * attempts as activities and recording each ended step before the next starts. Its id is the run
 * id.
 */
@WorkflowInterface
public interface InterpreterWorkflow {
  String TYPE = "CortexRun";

  /**
   * Runs {@link Payloads.Start} (JSON) to its end and returns the final {@code RunRecord} (JSON).
   */
  @WorkflowMethod(name = TYPE)
  String run(String start);

  /** The recorded steps from position {@code from} on, as {@link Payloads.Progress} (JSON). */
  @QueryMethod(name = "steps")
  String steps(int from);
}
