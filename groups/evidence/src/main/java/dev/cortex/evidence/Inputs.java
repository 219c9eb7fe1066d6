package dev.cortex.evidence;

import dev.cortex.mcp.tool.Schema;
import java.util.List;
import java.util.Map;

/** Argument records of the evidence tools, and the schema pieces they share. */
final class Inputs {
  private Inputs() {}

  static final int MAX_CRITERIA = 32;
  static final int MAX_IDS = 16;
  static final int MAX_LIMIT = 20;

  /** What a project ID may look like, for tools and the CLI alike. */
  static final String PROJECT_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$";

  static Map<String, Object> projectId() {
    return Schema.withExamples(
        Schema.pattern(
            "Project the records belong to; the first record creates it. Projects isolate"
                + " records; they do not authenticate callers.",
            PROJECT_ID_PATTERN),
        "example-api");
  }

  static Map<String, Object> recordId(String what) {
    return Schema.string(what, 1, 64);
  }

  static Map<String, Object> text(String description, int max) {
    return Schema.string(description, 1, max);
  }

  static Map<String, Object> ids(String description) {
    return Schema.array(
        description,
        recordId("A record ID, as the tool that created it returned it."),
        1,
        MAX_IDS,
        true);
  }

  record CriterionInput(String key, String description, Boolean required) {
    boolean isRequired() {
      return required == null || required;
    }
  }

  record CreateClaim(String projectId, String statement, List<CriterionInput> criteria) {}

  record AddEvidence(
      String projectId,
      String claimId,
      String criterionId,
      String contentSummary,
      String relation,
      String origin,
      String sourceType,
      String sourceRef,
      String collector,
      String artifactDigest,
      String observedAt) {}

  record TrackAssumption(String projectId, String statement, String context, Double confidence) {}

  record UpdateAssumption(String projectId, String assumptionId, String status, String reason) {}

  record Review(
      String projectId,
      String targetType,
      String targetId,
      String decision,
      List<String> claimIds,
      List<String> assumptionIds) {}

  record GetContext(String projectId, List<String> include, Integer limit) {}
}
