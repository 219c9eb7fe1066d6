package dev.cortex.workflows.run;

import java.util.Objects;

/** Why a step (or one of its for_each items) failed: a stable kind and a message. */
public record StepError(String kind, String message) {
  public StepError {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
