package dev.cortex.evidence;

/** The caller's assessment of an assumption. */
enum AssumptionStatus implements WireName {
  UNVERIFIED,
  SUPPORTED,
  REFUTED,
  INCONCLUSIVE;
}
