package dev.cortex.evidence;

import com.fasterxml.jackson.annotation.JsonValue;

/** The caller's assessment of an assumption. */
enum AssumptionStatus implements Wire {
  UNVERIFIED,
  SUPPORTED,
  REFUTED,
  INCONCLUSIVE;

  @JsonValue
  @Override
  public String wire() {
    return Wire.super.wire();
  }
}
