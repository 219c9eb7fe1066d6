package dev.cortex.evidence;

import dev.cortex.evidence.ReviewModel.ClaimEvaluation;
import dev.cortex.evidence.ReviewModel.Finding;
import java.util.List;

/** Result records of the evidence tools; field names become snake_case on the wire. */
final class Results {
  private Results() {}

  /** Caller-supplied evidence never establishes independent collection. */
  static final String UNVERIFIED_ORIGIN = "unverified_origin";

  record CriterionRef(String key, String criterionId) {}

  record CreatedClaim(
      String claimId,
      String projectId,
      List<CriterionRef> criteria,
      String status,
      String createdAt) {}

  record Provenance(
      String origin,
      String sourceType,
      String sourceRef,
      String collector,
      String observedAt,
      String artifactDigest) {}

  record AddedEvidence(
      String evidenceId,
      String claimId,
      String criterionId,
      String relation,
      Provenance provenance,
      String assurance,
      String integrityStatus,
      String createdAt) {}

  record TrackedAssumption(
      String assumptionId, String status, Double confidence, String createdAt) {}

  record UpdatedAssumption(
      String assumptionId, String previousStatus, String status, int position, String updatedAt) {}

  record SavedReview(
      String reviewId,
      String projectId,
      String targetType,
      String targetId,
      String decision,
      List<String> claimIds,
      List<String> assumptionIds,
      String policyVersion,
      String status,
      List<ClaimEvaluation> claimEvaluations,
      List<Finding> findings,
      String createdAt) {}

  static String integrityStatus(String digest) {
    return digest == null ? "no_digest" : "digest_recorded";
  }
}
