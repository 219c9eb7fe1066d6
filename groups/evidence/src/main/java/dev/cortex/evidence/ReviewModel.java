package dev.cortex.evidence;

import java.util.Comparator;
import java.util.List;

/** What a review concludes: claim evaluations and ordered findings. Saved as a snapshot. */
final class ReviewModel {
  private ReviewModel() {}

  /** The outcome of one required criterion, in the order reviews list them. */
  enum CriterionOutcome implements WireName {
    CONFLICTING_REPORTS,
    REPORTED_FAILURE,
    MISSING_EVIDENCE,
    UNVERIFIED_SOURCE,
    SUPPORTED;
  }

  /** A claim's status under a policy. */
  enum ClaimStatus implements WireName {
    VERIFIED,
    CONTRADICTED,
    UNVERIFIED;
  }

  /** How much weight a finding carries, most serious first. */
  enum Severity implements WireName {
    ERROR,
    WARNING,
    INFO;
  }

  /** A review rule; its wire spelling is its name, e.g. {@code MISSING_REQUIRED_EVIDENCE}. */
  enum Rule {
    CONTRADICTORY_EVIDENCE,
    INVALID_REFERENCE,
    MISSING_REQUIRED_EVIDENCE,
    REFUTED_ASSUMPTION,
    REPORTED_ONLY_EVIDENCE,
    UNRESOLVED_ASSUMPTION,
    UNVERIFIED_CLAIM
  }

  /** The status of a decision review: advisory, over the referenced records only. */
  enum DecisionStatus implements WireName {
    BLOCKED_RECOMMENDATION,
    WARNING,
    PASS_WITH_CAVEATS;
  }

  record CriterionEvaluation(CriterionOutcome outcome, String criterionId, String key) {
    static final Comparator<CriterionEvaluation> ORDER =
        Comparator.comparing(CriterionEvaluation::outcome).thenComparing(CriterionEvaluation::key);
  }

  /**
   * @param assurance {@code provisional} for a verified or contradicted claim (only a policy that
   *     admits caller-supplied origins can reach those), else {@code none}
   * @param criteriaSatisfiedAsReported every required criterion has a linked supporting report,
   *     whatever its origin and even when other records contradict it
   */
  record ClaimEvaluation(
      String claimId,
      ClaimStatus status,
      String assurance,
      boolean criteriaSatisfiedAsReported,
      List<CriterionEvaluation> criterionEvaluations) {}

  /**
   * One finding. Evidence findings are grouped: {@code evidenceCount} is the total and {@code
   * evidenceIds} holds at most three of them, sorted.
   */
  record Finding(
      Rule ruleId,
      Severity severity,
      String message,
      String claimId,
      String criterionId,
      String assumptionId,
      int evidenceCount,
      List<String> evidenceIds) {

    static final int MAX_IDS = 3;

    static final Comparator<Finding> ORDER =
        Comparator.comparing(Finding::severity)
            .thenComparing(f -> f.ruleId().name())
            .thenComparing(Finding::claimId, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Finding::criterionId, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Finding::assumptionId, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(f -> String.join(",", f.evidenceIds()));

    Finding {
      evidenceIds = List.copyOf(evidenceIds);
    }
  }

  /**
   * The result of a review before it is saved.
   *
   * @param status for a claim target the claim's status; for a decision the decision status
   */
  record Outcome(
      String status,
      Policy policy,
      List<ClaimEvaluation> claimEvaluations,
      List<Finding> findings) {}
}
