package dev.cortex.workflows.activity;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A failed attempt, as the workflow author should see it: a stable {@code kind} (e.g. {@code
 * exit_status}, {@code http_status}, {@code timeout}, {@code invalid_input}, {@code sql}, {@code
 * mcp_error}, {@code llm}, {@code jq}), a message, and optionally what the attempt produced before
 * failing (a failed command's stdout and stderr). Messages name no internals of Cortex.
 */
public final class ActivityFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final String kind;
  private final transient JsonNode output;
  private final boolean retryable;

  public ActivityFailure(String kind, String message) {
    this(kind, message, null, true);
  }

  public ActivityFailure(String kind, String message, JsonNode output, boolean retryable) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.output = output;
    this.retryable = retryable;
  }

  public String kind() {
    return kind;
  }

  /** What the attempt produced before it failed; null when nothing. */
  public JsonNode output() {
    return output;
  }

  /**
   * Whether another attempt could succeed. Inputs that fail their schema, or a missing API key, are
   * not retried whatever the step's retry policy says.
   */
  public boolean retryable() {
    return retryable;
  }
}
