package dev.cortex.workflows.manifest;

import dev.cortex.workflows.jq.Template;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One step of a workflow. {@code with} holds the inputs as parsed JSON values (maps, lists,
 * strings, numbers, booleans, null); a string in it may contain jq expressions in {@link Template}
 * syntax. {@code condition} ({@code if}) and {@code forEach} are bare jq expressions. {@code
 * timeout} is null when the step has none.
 */
public record Step(
    String id,
    StepKind kind,
    Map<String, Object> with,
    String condition,
    String forEach,
    int concurrency,
    Duration timeout,
    Retry retry) {

  public Step {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    with = with == null ? Map.of() : Ordered.copy(with);
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
    }
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new IllegalArgumentException("timeout must be positive");
    }
    retry = retry == null ? Retry.NONE : retry;
  }

  /** The {@code if} expression, when the step has one. */
  Optional<String> ifExpression() {
    return Optional.ofNullable(condition);
  }

  /** The {@code for_each} expression, when the step fans out. */
  Optional<String> forEachExpression() {
    return Optional.ofNullable(forEach);
  }

  /** The step's timeout, when it has one. */
  Optional<Duration> timeoutDuration() {
    return Optional.ofNullable(timeout);
  }
}
