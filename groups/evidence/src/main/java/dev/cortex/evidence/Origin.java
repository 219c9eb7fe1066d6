package dev.cortex.evidence;

/** Who the caller says produced a piece of evidence. Claimed, never verified by Cortex. */
enum Origin implements WireName {
  AGENT_REPORTED,
  USER_ATTESTED,
  TOOL_OUTPUT_RECORDED;
}
