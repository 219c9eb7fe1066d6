package dev.cortex.evidence;

/** How a piece of evidence bears on its claim or criterion, as the caller recorded it. */
enum Relation implements WireName {
  SUPPORTS,
  CONTRADICTS,
  NEUTRAL;
}
