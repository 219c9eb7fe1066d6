package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Where a step stands. Steps after a failed one stay {@code PENDING}; the step running when its run
 * was cancelled is {@code CANCELLED} (its processes were ended).
 */
public enum StepStatus {
  PENDING,
  SUCCEEDED,
  FAILED,
  SKIPPED,
  CANCELLED;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a resumed run can take the step's outcome as it is. */
  public boolean done() {
    return this == SUCCEEDED || this == SKIPPED;
  }

  static StepStatus fromWire(String wire) {
    return valueOf(wire.toUpperCase(Locale.ROOT));
  }
}
