package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The trace of one step: status, attempts, times, cost, output and its one-line summary, the error
 * when it failed, and for a {@code for_each} step each item's outcome (the output is then the
 * items' outputs in order). {@code model} names the model an {@code llm} step called.
 */
public record StepRecord(
    String id,
    String kind,
    StepStatus status,
    int attempts,
    String startedAt,
    String endedAt,
    Long durationMs,
    RunCost cost,
    @JsonInclude(JsonInclude.Include.NON_NULL) String model,
    JsonNode output,
    String outputSummary,
    StepError error,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<ItemRecord> items) {

  public StepRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(status, "status");
    cost = cost == null ? RunCost.ZERO : cost;
    items = items == null ? null : List.copyOf(items);
  }

  /**
   * This step, cut short by its run's cancellation: status cancelled, ended at {@code endedAt}, its
   * output kept when it has one.
   */
  public StepRecord cancelled(String endedAt, RunCancellation cancellation) {
    return new StepRecord(
        id,
        kind,
        StepStatus.CANCELLED,
        attempts,
        startedAt == null ? endedAt : startedAt,
        endedAt,
        durationMs,
        cost,
        model,
        output,
        "cancelled",
        new StepError("cancelled", cancellation.describe()),
        items);
  }

  /** A step that has not run yet. */
  public static StepRecord pending(String id, String kind) {
    return new StepRecord(
        id,
        kind,
        StepStatus.PENDING,
        0,
        null,
        null,
        null,
        RunCost.ZERO,
        null,
        null,
        null,
        null,
        null);
  }
}
