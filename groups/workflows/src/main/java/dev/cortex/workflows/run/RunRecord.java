package dev.cortex.workflows.run;

import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The trace of a run as it stands: what ran (workflow, version, source, parameters), on which
 * engine, its status and times, its cost, every step in manifest order, and the error that ended it
 * when it failed. {@code resumes} counts how often it was resumed after an interruption.
 */
public record RunRecord(
    String runId,
    String workflow,
    String version,
    WorkflowRef source,
    JsonNode parameters,
    RunStatus status,
    String engine,
    String startedAt,
    String endedAt,
    Long durationMs,
    RunCost cost,
    int stepsTotal,
    int stepsCompleted,
    int resumes,
    List<StepRecord> steps,
    RunError error) {

  public RunRecord {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(status, "status");
    steps = List.copyOf(steps);
    cost = cost == null ? RunCost.ZERO : cost;
  }

  /** The error that ended a failed run: the step, the kind and the message. */
  public record RunError(String step, String kind, String message) {}

  /** The step with {@code id}, if the workflow has one. */
  public java.util.Optional<StepRecord> step(String id) {
    return steps.stream().filter(s -> s.id().equals(id)).findFirst();
  }
}
