package dev.cortex.evidence;

/** The caller's assessment of an assumption. */
enum AssumptionStatus implements Wire {
  UNVERIFIED,
  SUPPORTED,
  REFUTED,
  INCONCLUSIVE;
}
