package dev.cortex.evidence;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code evidence} group: a local ledger of claims, evidence, assumptions and deterministic
 * reviews.
 */
public final class EvidenceGroup {
  public static final String NAME = "evidence";
  public static final String SERVER_KEY = "cortex-evidence";

  public static final GroupDescriptor DESCRIPTOR =
      GroupDescriptor.of(
          NAME,
          SERVER_KEY,
          "Claims, evidence, assumptions and deterministic reviews in a local ledger.");

  private EvidenceGroup() {}

  /**
   * The group's tools over the shared database. The database is asked for on the first call that
   * needs it, so serving (and {@code cortex_health}) never opens it.
   */
  public static CapabilityGroup create(String version, Supplier<Database> database) {
    List<ToolSpec> tools = new ArrayList<>();
    tools.add(Health.spec(version));
    tools.addAll(new EvidenceTools(new Ledger(database)).specs());
    return DESCRIPTOR.group(tools).withInstructions(INSTRUCTIONS);
  }

  /** How an agent uses the group, for the server's instructions. */
  static final String INSTRUCTIONS =
      "evidence: a ledger of what you claim and what backs it, per project_id. Before the work,"
          + " register a claim with the criteria that would verify it (cortex_create_claim); as you"
          + " work, record what you observe against its criteria (cortex_add_evidence) and track"
          + " what you take for granted (cortex_track_assumption, cortex_update_assumption). Ask"
          + " cortex_review before you say a claim holds or act on a decision, and report its"
          + " status as it is: evidence you report is unverified_origin, and only a person sets a"
          + " project's policy. cortex_get_context reads a project back after a restart;"
          + " cortex_health only says the server answers.";

  /** The evidence area's tables and migrations, for whoever opens the shared database. */
  public static Area storageArea() {
    return EvidenceSchema.area();
  }

  /** Sets a project's review policy (creating the project if needed): a human's act, not a tool. */
  public static String provision(
      Database database, String projectId, String policyVersion, Instant now) {
    if (projectId == null || !projectId.matches(Inputs.PROJECT_ID_PATTERN)) {
      throw new IllegalArgumentException(
          "'"
              + projectId
              + "' is not a project ID: use 1 to 128 letters, digits and . _ : / -,"
              + " starting with a letter or digit.");
    }
    Policy policy = Policy.ofVersion(policyVersion);
    return new Ledger(() -> database).provision(projectId, policy, now).version();
  }
}
