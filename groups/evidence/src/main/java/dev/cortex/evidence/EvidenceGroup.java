package dev.cortex.evidence;

import dev.cortex.mcp.CapabilityGroup;
import java.util.List;

/**
 * The {@code evidence} group: a local ledger of claims, evidence, assumptions and deterministic
 * reviews.
 */
public final class EvidenceGroup {
  public static final String NAME = "evidence";
  public static final String SERVER_KEY = "cortex-evidence";

  private EvidenceGroup() {}

  public static CapabilityGroup create(String version) {
    return CapabilityGroup.ofTools(
        NAME,
        SERVER_KEY,
        "Claims, evidence, assumptions and deterministic reviews in a local ledger.",
        List.of(Health.spec(version)));
  }
}
