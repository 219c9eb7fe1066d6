package dev.cortex.workflows.manifest;

import java.time.Duration;
import java.util.Objects;

/** How often a failed step is tried in all, and the pause before each new attempt. */
public record Retry(int attempts, Duration backoff) {
  /** One attempt, no retry. */
  static final Retry NONE = new Retry(1, Duration.ZERO);

  public Retry {
    if (attempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
    }
    Objects.requireNonNull(backoff, "backoff");
    if (backoff.isNegative()) {
      throw new IllegalArgumentException("backoff must not be negative");
    }
  }
}
