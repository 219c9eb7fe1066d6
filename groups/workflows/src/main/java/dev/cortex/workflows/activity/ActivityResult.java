package dev.cortex.workflows.activity;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The outcome of a successful attempt: the output (any JSON value; later steps see it as {@code
 * .steps.<id>}), a short human summary such as {@code "214 rows"}, {@code "exit 0, 12 lines"} or
 * {@code "HTTP 200, 3.1 KB"}, and what it cost.
 */
public record ActivityResult(JsonNode output, String summary, Cost cost) {
  public ActivityResult {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(summary, "summary");
    cost = cost == null ? Cost.ZERO : cost;
  }

  public static ActivityResult of(JsonNode output, String summary) {
    return new ActivityResult(output, summary, Cost.ZERO);
  }
}
