package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
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

  /**
   * A builder of a record for run {@code runId} in {@code status}; everything else is empty until
   * set (no steps, zero cost, no end, no error).
   *
   * @throws NullPointerException naming the field when either is null
   */
  public static Builder builder(String runId, RunStatus status) {
    return new Builder(runId, status);
  }

  /** A builder that starts from this record, for a copy that changes some fields. */
  public Builder toBuilder() {
    return new Builder(runId, status)
        .workflow(workflow)
        .version(version)
        .source(source)
        .parameters(parameters)
        .engine(engine)
        .startedAt(startedAt)
        .ended(endedAt, durationMs)
        .cost(cost)
        .stepsTotal(stepsTotal)
        .stepsCompleted(stepsCompleted)
        .resumes(resumes)
        .steps(steps)
        .error(error)
        .cancelled(cancelled);
  }

  /** A new run of {@code request} on {@code engine}: every step pending. */
  public static RunRecord starting(
      String runId, RunRequest request, String engine, String startedAt) {
    List<StepRecord> pending = new ArrayList<>();
    for (dev.cortex.workflows.manifest.Step step : request.manifest().steps()) {
      pending.add(StepRecord.pending(step.id(), step.kind().wireName()));
    }
    return builder(runId, RunStatus.RUNNING)
        .workflow(request.manifest().name())
        .version(request.manifest().version())
        .source(request.source())
        .parameters(dev.cortex.base.Json.tree(request.parameters()))
        .engine(engine)
        .startedAt(startedAt)
        .stepsTotal(pending.size())
        .steps(pending)
        .build();
  }

  /** This run, still going, with {@code step} at {@code position} and the totals brought along. */
  public RunRecord withStep(int position, StepRecord step) {
    List<StepRecord> updated = new ArrayList<>(steps);
    updated.set(position, step);
    RunCost total = RunCost.ZERO;
    for (StepRecord each : updated) {
      total = total.plus(each.cost());
    }
    return toBuilder()
        .ended(null, null)
        .cost(total)
        .stepsCompleted(completed(updated))
        .steps(updated)
        .error(null)
        .cancelled(null)
        .build();
  }

  /** This run, ended: succeeded when {@code error} is null, else failed with it. */
  public RunRecord ended(String endedAt, long durationMs, RunError error) {
    return toBuilder()
        .status(error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED)
        .ended(endedAt, durationMs)
        .error(error)
        .cancelled(null)
        .build();
  }

  /**
   * This run, cancelled as {@code cancellation} says: the step at {@code running} (or -1 when none
   * was) is marked cancelled, later steps stay pending.
   */
  public RunRecord cancelled(
      String endedAt, long durationMs, RunCancellation cancellation, int running) {
    List<StepRecord> updated = new ArrayList<>(steps);
    String stepId = null;
    if (running >= 0 && running < updated.size()) {
      StepRecord step = updated.get(running);
      stepId = step.id();
      if (!step.status().done()) {
        updated.set(running, step.cancelled(endedAt, cancellation));
      }
    }
    return toBuilder()
        .status(RunStatus.CANCELLED)
        .ended(endedAt, durationMs)
        .stepsCompleted(completed(updated))
        .steps(updated)
        .error(new RunError(stepId, "cancelled", cancellation.describe()))
        .cancelled(cancellation)
        .build();
  }

  /** This run, running again on {@code engine}: its end, error and cancellation cleared. */
  public RunRecord resumedOn(String engine) {
    return toBuilder()
        .status(RunStatus.RUNNING)
        .engine(engine)
        .ended(null, null)
        .error(null)
        .cancelled(null)
        .build();
  }

  private static int completed(List<StepRecord> steps) {
    int completed = 0;
    for (StepRecord each : steps) {
      if (each.status() != StepStatus.PENDING) {
        completed++;
      }
    }
    return completed;
  }

  /** The step with {@code id}, if the workflow has one. */
  public java.util.Optional<StepRecord> step(String id) {
    return steps.stream().filter(s -> s.id().equals(id)).findFirst();
  }

  /**
   * Builds a {@link RunRecord}: the run's id and status first, the rest by name. Counts are checked
   * as they are set.
   */
  public static final class Builder {
    private final String runId;
    private RunStatus status;
    private String workflow;
    private String version;
    private WorkflowRef source;
    private JsonNode parameters;
    private String engine;
    private String startedAt;
    private String endedAt;
    private Long durationMs;
    private RunCost cost = RunCost.ZERO;
    private int stepsTotal;
    private int stepsCompleted;
    private int resumes;
    private List<StepRecord> steps = List.of();
    private RunError error;
    private RunCancellation cancelled;

    private Builder(String runId, RunStatus status) {
      this.runId = Objects.requireNonNull(runId, "runId");
      this.status = Objects.requireNonNull(status, "status");
    }

    public Builder status(RunStatus status) {
      this.status = Objects.requireNonNull(status, "status");
      return this;
    }

    public Builder workflow(String workflow) {
      this.workflow = workflow;
      return this;
    }

    public Builder version(String version) {
      this.version = version;
      return this;
    }

    public Builder source(WorkflowRef source) {
      this.source = source;
      return this;
    }

    public Builder parameters(JsonNode parameters) {
      this.parameters = parameters;
      return this;
    }

    public Builder engine(String engine) {
      this.engine = engine;
      return this;
    }

    public Builder startedAt(String startedAt) {
      this.startedAt = startedAt;
      return this;
    }

    /** When the run ended and how long it took; both null while it has not ended. */
    public Builder ended(String endedAt, Long durationMs) {
      this.endedAt = endedAt;
      this.durationMs = durationMs;
      return this;
    }

    /** The run's cost; null is zero. */
    public Builder cost(RunCost cost) {
      this.cost = cost == null ? RunCost.ZERO : cost;
      return this;
    }

    public Builder stepsTotal(int stepsTotal) {
      this.stepsTotal = count("stepsTotal", stepsTotal);
      return this;
    }

    public Builder stepsCompleted(int stepsCompleted) {
      this.stepsCompleted = count("stepsCompleted", stepsCompleted);
      return this;
    }

    public Builder resumes(int resumes) {
      this.resumes = count("resumes", resumes);
      return this;
    }

    /** The steps' records in manifest order (a stored run may hold only those that ran). */
    public Builder steps(List<StepRecord> steps) {
      this.steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
      return this;
    }

    public Builder error(RunError error) {
      this.error = error;
      return this;
    }

    public Builder cancelled(RunCancellation cancelled) {
      this.cancelled = cancelled;
      return this;
    }

    public RunRecord build() {
      return new RunRecord(
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
          cancelled);
    }

    private static int count(String field, int value) {
      if (value < 0) {
        throw new IllegalArgumentException(field + " must not be negative, got " + value);
      }
      return value;
    }
  }
}
