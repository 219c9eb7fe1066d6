package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The trace of a run as it stands: what ran (workflow, version, source, parameters), on which
 * engine, its status and times, its cost, every step in manifest order, the error that ended it
 * when it failed or was cancelled, and who cancelled it, when. {@code resumes} counts how often it
 * was resumed after an interruption.
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
    RunError error,
    @JsonInclude(JsonInclude.Include.NON_NULL) RunCancellation cancelled) {

  public RunRecord {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(status, "status");
    steps = List.copyOf(steps);
    cost = cost == null ? RunCost.ZERO : cost;
  }

  /** The error that ended a failed run: the step, the kind and the message. */
  public record RunError(String step, String kind, String message) {}

  /** A record without a cancellation (every run that was not cancelled). */
  public RunRecord(
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
    this(
        runId,
        workflow,
        version,
        source,
        parameters,
        status,
        engine,
        startedAt,
        endedAt,
        durationMs,
        cost,
        stepsTotal,
        stepsCompleted,
        resumes,
        steps,
        error,
        null);
  }

  /** A new run of {@code request} on {@code engine}: every step pending. */
  public static RunRecord starting(
      String runId, RunRequest request, String engine, String startedAt) {
    List<StepRecord> pending = new java.util.ArrayList<>();
    for (dev.cortex.workflows.manifest.Step step : request.manifest().steps()) {
      pending.add(StepRecord.pending(step.id(), step.kind().wireName()));
    }
    return new RunRecord(
        runId,
        request.manifest().name(),
        request.manifest().version(),
        request.source(),
        dev.cortex.base.Json.tree(request.parameters()),
        RunStatus.RUNNING,
        engine,
        startedAt,
        null,
        null,
        RunCost.ZERO,
        pending.size(),
        0,
        0,
        pending,
        null);
  }

  /** This run, still going, with {@code step} at {@code position} and the totals brought along. */
  public RunRecord withStep(int position, StepRecord step) {
    List<StepRecord> updated = new java.util.ArrayList<>(steps);
    updated.set(position, step);
    int completed = 0;
    RunCost total = RunCost.ZERO;
    for (StepRecord each : updated) {
      if (each.status() != StepStatus.PENDING) {
        completed++;
      }
      total = total.plus(each.cost());
    }
    return new RunRecord(
        runId,
        workflow,
        version,
        source,
        parameters,
        status,
        engine,
        startedAt,
        null,
        null,
        total,
        stepsTotal,
        completed,
        resumes,
        updated,
        null);
  }

  /** This run, ended: succeeded when {@code error} is null, else failed with it. */
  public RunRecord ended(String endedAt, long durationMs, RunError error) {
    return new RunRecord(
        runId,
        workflow,
        version,
        source,
        parameters,
        error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED,
        engine,
        startedAt,
        endedAt,
        durationMs,
        cost,
        stepsTotal,
        stepsCompleted,
        resumes,
        steps,
        error);
  }

  /**
   * This run, cancelled as {@code cancellation} says: the step at {@code running} (or -1 when none
   * was) is marked cancelled, later steps stay pending.
   */
  public RunRecord cancelled(
      String endedAt, long durationMs, RunCancellation cancellation, int running) {
    List<StepRecord> updated = new java.util.ArrayList<>(steps);
    String stepId = null;
    if (running >= 0 && running < updated.size()) {
      StepRecord step = updated.get(running);
      stepId = step.id();
      if (!step.status().done()) {
        updated.set(running, step.cancelled(endedAt, cancellation));
      }
    }
    int completed = 0;
    for (StepRecord each : updated) {
      if (each.status() != StepStatus.PENDING) {
        completed++;
      }
    }
    return new RunRecord(
        runId,
        workflow,
        version,
        source,
        parameters,
        RunStatus.CANCELLED,
        engine,
        startedAt,
        endedAt,
        durationMs,
        cost,
        stepsTotal,
        completed,
        resumes,
        updated,
        new RunError(stepId, "cancelled", cancellation.describe()),
        cancellation);
  }

  /** The step with {@code id}, if the workflow has one. */
  public java.util.Optional<StepRecord> step(String id) {
    return steps.stream().filter(s -> s.id().equals(id)).findFirst();
  }
}
