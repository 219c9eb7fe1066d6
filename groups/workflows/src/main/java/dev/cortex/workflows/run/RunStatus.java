package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a run stands. A run whose process died while it was {@code RUNNING} is interrupted; one a
 * person or an agent stopped is cancelled (for good: it is not resumed).
 */
public enum RunStatus {
  RUNNING,
  SUCCEEDED,
  FAILED,
  INTERRUPTED,
  CANCELLED;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  public boolean ended() {
    return this != RUNNING;
  }

  public static Optional<RunStatus> fromWire(String wire) {
    for (RunStatus status : values()) {
      if (status.wire().equals(wire)) {
        return Optional.of(status);
      }
    }
    return Optional.empty();
  }
}
