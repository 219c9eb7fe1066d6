package dev.cortex.evidence;

import dev.cortex.mcp.tool.Schema;
import java.util.Map;

/** Output schemas of the evidence tools. */
final class OutputSchemas {
  private OutputSchemas() {}

  static Map<String, Object> str(String d) {
    return Schema.string(d);
  }

  static Map<String, Object> optStr(String d) {
    return Schema.nullable(Schema.string(d));
  }

  static Map<String, Object> createdClaim() {
    return Schema.object()
        .required("claim_id", str("ID of the new claim."))
        .required("project_id", str("The project."))
        .required(
            "criteria",
            Schema.array(
                "The criteria with their new IDs, in the order given.",
                Schema.object()
                    .required("key", str("Criterion key."))
                    .required("criterion_id", str("Criterion ID."))
                    .build(),
                0,
                0,
                false))
        .required("status", Schema.enumOf("Always 'unverified' for a new claim.", "unverified"))
        .required("created_at", Schema.instant("When it was created (UTC)."))
        .build();
  }

  static Map<String, Object> provenance() {
    return Schema.object()
        .description("Provenance as claimed by the caller; Cortex does not verify it.")
        .required("origin", Schema.enumOf("Claimed origin.", WireName.values(Origin.class)))
        .required(
            "source_type", Schema.enumOf("Kind of source.", WireName.values(SourceType.class)))
        .required("source_ref", optStr("Reference to the source, e.g. a command or URL."))
        .required("collector", optStr("Who or what collected it."))
        .required("observed_at", optStr("When it was observed (UTC, to the millisecond)."))
        .required("artifact_digest", optStr("SHA-256 of the artifact as supplied, in lower case."))
        .build();
  }

  static Map<String, Object> evidence() {
    return Schema.object()
        .required("evidence_id", str("ID of the evidence record."))
        .required("claim_id", str("The claim it is recorded against."))
        .required(
            "criterion_id",
            optStr("The criterion it is linked to, or null for the claim as a whole."))
        .required("relation", Schema.enumOf("Recorded relation.", WireName.values(Relation.class)))
        .required("provenance", provenance())
        .required(
            "assurance",
            Schema.enumOf(
                "Caller-supplied evidence has unverified origin.", Results.UNVERIFIED_ORIGIN))
        .required(
            "integrity_status",
            Schema.enumOf("Whether a digest was recorded.", "digest_recorded", "no_digest"))
        .required("created_at", Schema.instant("When it was recorded (UTC)."))
        .build();
  }

  static Map<String, Object> trackedAssumption() {
    return Schema.object()
        .required("assumption_id", str("ID of the new assumption."))
        .required("status", Schema.enumOf("Initial status.", "unverified"))
        .required("confidence", Schema.nullable(Schema.number("Caller-reported confidence.")))
        .required("created_at", Schema.instant("When it was created (UTC)."))
        .build();
  }

  static Map<String, Object> updatedAssumption() {
    return Schema.object()
        .required("assumption_id", str("The assumption."))
        .required(
            "previous_status",
            Schema.enumOf("Status before the update.", WireName.values(AssumptionStatus.class)))
        .required("status", Schema.enumOf("Status now.", WireName.values(AssumptionStatus.class)))
        .required(
            "position",
            Schema.integer("Order of this update among the assumption's updates, from 1."))
        .required("updated_at", Schema.instant("When it was updated (UTC)."))
        .build();
  }

  static Map<String, Object> claimEvaluation() {
    return Schema.object()
        .required("claim_id", str("The claim."))
        .required(
            "status",
            Schema.enumOf(
                "Claim status under the policy.", WireName.values(ReviewModel.ClaimStatus.class)))
        .required(
            "assurance",
            Schema.enumOf(
                "'provisional' for verified or contradicted claims, else 'none'.",
                "provisional",
                "none"))
        .required(
            "criteria_satisfied_as_reported",
            Schema.bool(
                "Every required criterion has a linked supporting report, whatever its origin."))
        .required(
            "criterion_evaluations",
            Schema.array(
                "Required criteria, by outcome then key.",
                Schema.object()
                    .required(
                        "outcome",
                        Schema.enumOf(
                            "Outcome.", WireName.values(ReviewModel.CriterionOutcome.class)))
                    .required("criterion_id", str("Criterion ID."))
                    .required("key", str("Criterion key."))
                    .build(),
                0,
                0,
                false))
        .build();
  }

  static Map<String, Object> finding() {
    String[] rules =
        java.util.Arrays.stream(ReviewModel.Rule.values()).map(Enum::name).toArray(String[]::new);
    return Schema.object()
        .required("rule_id", Schema.enumOf("The rule.", rules))
        .required(
            "severity", Schema.enumOf("Severity.", WireName.values(ReviewModel.Severity.class)))
        .required("message", str("What the rule found."))
        .required("claim_id", optStr("The claim concerned."))
        .required("criterion_id", optStr("The criterion concerned."))
        .required("assumption_id", optStr("The assumption concerned."))
        .required("evidence_count", Schema.integer("Total evidence records the finding groups."))
        .required(
            "evidence_ids",
            Schema.array(
                "Up to three of them, sorted.", Schema.string("Evidence ID."), 0, 3, false))
        .build();
  }

  static Map<String, Object> review() {
    return Schema.object()
        .required("review_id", str("ID of the saved review snapshot."))
        .required("project_id", str("The project."))
        .required("target_type", Schema.enumOf("What was reviewed.", "claim", "decision"))
        .required("target_id", optStr("The claim, for a claim review."))
        .required("decision", optStr("The decision statement, for a decision review."))
        .required(
            "claim_ids",
            Schema.array("Claims a decision review covered.", Schema.string("ID"), 0, 0, false))
        .required(
            "assumption_ids",
            Schema.array(
                "Assumptions a decision review covered.", Schema.string("ID"), 0, 0, false))
        .required(
            "policy_version", Schema.enumOf("The project's policy.", "strict-1", "provisional-1"))
        .required(
            "status",
            Schema.enumOf(
                "Claim status for a claim review; for a decision review: blocked_recommendation, warning or pass_with_caveats.",
                "verified",
                "contradicted",
                "unverified",
                "blocked_recommendation",
                "warning",
                "pass_with_caveats"))
        .required(
            "claim_evaluations",
            Schema.array("One per claim reviewed.", claimEvaluation(), 0, 0, false))
        .required(
            "findings",
            Schema.array("By severity, rule ID, then record IDs.", finding(), 0, 0, false))
        .required("created_at", Schema.instant("When the review was made (UTC)."))
        .build();
  }

  static Map<String, Object> context() {
    Schema.ObjectBuilder builder = Schema.object().required("project_id", str("The project."));
    for (String collection : ContextReader.COLLECTIONS) {
      builder.optional(
          collection,
          Schema.array(
              "The " + collection.replace('_', ' ') + ", newest first.",
              contextRow(collection),
              0,
              Inputs.MAX_LIMIT,
              false));
    }
    return builder.build();
  }

  /** One record of a context collection, as {@link ContextReader} reads it. */
  private static Map<String, Object> contextRow(String collection) {
    String[] assumptionStatuses = WireName.values(AssumptionStatus.class);
    return switch (collection) {
      case "claims" ->
          Schema.object()
              .required("claim_id", str("The claim."))
              .required("statement", str("What it asserts."))
              .required(
                  "criteria",
                  Schema.array(
                      "Its criteria, in the order given.",
                      Schema.object()
                          .required("criterion_id", str("Criterion ID."))
                          .required("key", str("Criterion key."))
                          .required("description", str("What would satisfy it."))
                          .required("required", Schema.bool("Whether the claim needs it."))
                          .build(),
                      0,
                      0,
                      false))
              .required("created_at", Schema.instant("When it was created (UTC)."))
              .build();
      case "assumptions" ->
          Schema.object()
              .required("assumption_id", str("The assumption."))
              .required("statement", str("What is assumed."))
              .required("context", optStr("Why it matters, as given."))
              .required("confidence", Schema.nullable(Schema.number("Caller-reported confidence.")))
              .required("status", Schema.enumOf("Its status now.", assumptionStatuses))
              .required("created_at", Schema.instant("When it was created (UTC)."))
              .required("updated_at", Schema.instant("When it last changed (UTC)."))
              .build();
      case "assumption_events" ->
          Schema.object()
              .required("assumption_id", str("The assumption."))
              .required("position", Schema.integer("Order among its updates, from 1."))
              .required("previous_status", Schema.enumOf("Status before.", assumptionStatuses))
              .required("new_status", Schema.enumOf("Status after.", assumptionStatuses))
              .required("reason", str("Why it changed."))
              .required("created_at", Schema.instant("When it was updated (UTC)."))
              .build();
      case "evidence" -> evidence();
      case "reviews" ->
          Schema.object()
              .required("review_id", str("The saved review."))
              .required("target_type", Schema.enumOf("What was reviewed.", "claim", "decision"))
              .required("target_id", optStr("The claim, for a claim review."))
              .required("decision", optStr("The decision statement, for a decision review."))
              .required("status", str("The review's status (see cortex_review)."))
              .required(
                  "policy_version",
                  Schema.enumOf("The policy it applied.", "strict-1", "provisional-1"))
              .required("created_at", Schema.instant("When the review was made (UTC)."))
              .build();
      case "test_runs" ->
          Schema.object()
              .required("run_id", str("The receipt."))
              .required("claim_id", str("The claim it was recorded for."))
              .required("criterion_id", str("The criterion it was recorded for."))
              .required("git_revision", str("The commit the tests ran at."))
              .required("runner", str("The runner used, e.g. maven or pytest."))
              .required("runner_version", optStr("Its version, when known."))
              .required(
                  "files", Schema.array("The test files run.", Schema.string(null), 0, 0, false))
              .required("exit_code", Schema.integer("The runner's exit code; 0 passed."))
              .required("started_at", Schema.instant("When the run started (UTC)."))
              .required("finished_at", Schema.instant("When it finished (UTC)."))
              .required("created_at", Schema.instant("When the receipt was saved (UTC)."))
              .build();
      default -> throw new IllegalArgumentException("unknown collection " + collection);
    };
  }
}
