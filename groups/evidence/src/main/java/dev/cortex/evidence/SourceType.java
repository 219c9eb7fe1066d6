package dev.cortex.evidence;

/** What kind of source a piece of evidence comes from. */
enum SourceType implements Wire {
  TEST,
  BUILD,
  LOG,
  DOCUMENT,
  MANUAL_OBSERVATION,
  OTHER;
}
