package dev.cortex.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.EnumSet;
import java.util.Set;

/**
 * How a project's reviews weigh evidence: which claimed origins are admissible. New projects get
 * {@link #STRICT_1}, which admits no caller-supplied evidence; a human may provision a project with
 * {@link #PROVISIONAL_1}, which admits user attestations and recorded tool output.
 */
enum Policy {
  STRICT_1("strict-1", EnumSet.noneOf(Origin.class)),
  PROVISIONAL_1("provisional-1", EnumSet.of(Origin.USER_ATTESTED, Origin.TOOL_OUTPUT_RECORDED));

  private final String version;
  private final Set<Origin> admissible;

  Policy(String version, Set<Origin> admissible) {
    this.version = version;
    this.admissible = admissible;
  }

  @JsonValue
  String version() {
    return version;
  }

  boolean admits(Origin origin) {
    return admissible.contains(origin);
  }

  static Policy ofVersion(String version) {
    for (Policy policy : values()) {
      if (policy.version.equals(version)) {
        return policy;
      }
    }
    throw new IllegalArgumentException(
        "unknown policy '" + version + "'; known: strict-1, provisional-1");
  }
}
