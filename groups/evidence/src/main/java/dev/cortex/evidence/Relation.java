package dev.cortex.evidence;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a piece of evidence bears on its claim or criterion, as the caller recorded it. */
enum Relation implements Wire {
  SUPPORTS,
  CONTRADICTS,
  NEUTRAL;

  @JsonValue
  @Override
  public String wire() {
    return Wire.super.wire();
  }
}
