package dev.cortex.evidence;

/** What kind of source a piece of evidence comes from. */
enum SourceType implements WireName {
  TEST,
  BUILD,
  LOG,
  DOCUMENT,
  MANUAL_OBSERVATION,
  OTHER;
}
