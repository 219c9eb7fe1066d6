package dev.cortex.evidence;

import com.fasterxml.jackson.annotation.JsonValue;

/** What kind of source a piece of evidence comes from. */
enum SourceType implements Wire {
  TEST,
  BUILD,
  LOG,
  DOCUMENT,
  MANUAL_OBSERVATION,
  OTHER;

  @JsonValue
  @Override
  public String wire() {
    return Wire.super.wire();
  }
}
