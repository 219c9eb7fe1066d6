package dev.cortex.evidence;

import dev.cortex.evidence.Records.Assumption;
import dev.cortex.evidence.Records.Claim;
import dev.cortex.evidence.Records.ClaimWithEvidence;
import dev.cortex.evidence.Records.Criterion;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.evidence.ReviewModel.ClaimEvaluation;
import dev.cortex.evidence.ReviewModel.ClaimStatus;
import dev.cortex.evidence.ReviewModel.CriterionEvaluation;
import dev.cortex.evidence.ReviewModel.CriterionOutcome;
import dev.cortex.evidence.ReviewModel.DecisionStatus;
import dev.cortex.evidence.ReviewModel.Finding;
import dev.cortex.evidence.ReviewModel.Rule;
import dev.cortex.evidence.ReviewModel.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Deterministic reviews: the same records and policy always give the same evaluations and the same
 * findings in the same order. Pure: no storage, no clock.
 */
final class Reviewer {
  private Reviewer() {}

  /** Reviews one claim: the outcome's status is the claim's status. */
  static ReviewModel.Outcome reviewClaim(Policy policy, ClaimWithEvidence target) {
    ClaimEvaluation evaluation = evaluate(policy, target);
    List<Finding> findings = new ArrayList<>(claimFindings(policy, target, evaluation));
    findings.sort(Finding.ORDER);
    return new ReviewModel.Outcome(
        evaluation.status().wire(), policy, List.of(evaluation), findings);
  }

  /** Reviews a proposed decision over the referenced claims and assumptions. */
  static ReviewModel.Outcome reviewDecision(
      Policy policy, List<ClaimWithEvidence> claims, List<Assumption> assumptions) {
    List<ClaimEvaluation> evaluations = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    for (ClaimWithEvidence claim : claims) {
      ClaimEvaluation evaluation = evaluate(policy, claim);
      evaluations.add(evaluation);
      findings.addAll(claimFindings(policy, claim, evaluation));
    }
    for (Assumption assumption : assumptions) {
      assumptionFinding(assumption).ifPresent(findings::add);
    }
    findings.sort(Finding.ORDER);
    return new ReviewModel.Outcome(
        decisionStatus(evaluations, assumptions, findings).wire(), policy, evaluations, findings);
  }

  static ClaimEvaluation evaluate(Policy policy, ClaimWithEvidence target) {
    Claim claim = target.claim();
    List<Criterion> required = claim.required();
    List<CriterionEvaluation> outcomes = new ArrayList<>();
    boolean anyAdmissibleContradiction = false;
    boolean allAdmissiblySupported = !required.isEmpty();
    boolean allReported = !required.isEmpty();
    for (Criterion criterion : required) {
      Linked linked = Linked.of(policy, target.evidence(), criterion.id());
      outcomes.add(new CriterionEvaluation(linked.outcome(), criterion.id(), criterion.key()));
      anyAdmissibleContradiction |= linked.admissibleContradictions > 0;
      allAdmissiblySupported &= linked.admissibleSupports > 0;
      allReported &= linked.supports > 0;
    }
    outcomes.sort(CriterionEvaluation.ORDER);
    ClaimStatus status =
        anyAdmissibleContradiction
            ? ClaimStatus.CONTRADICTED
            : allAdmissiblySupported ? ClaimStatus.VERIFIED : ClaimStatus.UNVERIFIED;
    String assurance = status == ClaimStatus.UNVERIFIED ? "none" : "provisional";
    return new ClaimEvaluation(claim.id(), status, assurance, allReported, outcomes);
  }

  /** Counts of the evidence linked to one criterion. */
  private record Linked(
      int supports, int contradictions, int admissibleSupports, int admissibleContradictions) {
    static Linked of(Policy policy, List<Evidence> evidence, String criterionId) {
      int supports = 0;
      int contradictions = 0;
      int admissibleSupports = 0;
      int admissibleContradictions = 0;
      for (Evidence e : evidence) {
        if (!criterionId.equals(e.criterionId())) {
          continue;
        }
        boolean admissible = policy.admits(e.origin());
        if (e.relation() == Relation.SUPPORTS) {
          supports++;
          admissibleSupports += admissible ? 1 : 0;
        } else if (e.relation() == Relation.CONTRADICTS) {
          contradictions++;
          admissibleContradictions += admissible ? 1 : 0;
        }
      }
      return new Linked(supports, contradictions, admissibleSupports, admissibleContradictions);
    }

    CriterionOutcome outcome() {
      if (supports > 0 && contradictions > 0) {
        return CriterionOutcome.CONFLICTING_REPORTS;
      }
      if (contradictions > 0) {
        return CriterionOutcome.REPORTED_FAILURE;
      }
      if (supports == 0) {
        return CriterionOutcome.MISSING_EVIDENCE;
      }
      return admissibleSupports == 0
          ? CriterionOutcome.UNVERIFIED_SOURCE
          : CriterionOutcome.SUPPORTED;
    }
  }

  private static List<Finding> claimFindings(
      Policy policy, ClaimWithEvidence target, ClaimEvaluation evaluation) {
    Claim claim = target.claim();
    List<Finding> findings = new ArrayList<>();
    List<Criterion> required = claim.required();
    if (required.isEmpty()) {
      findings.add(
          finding(
              Rule.MISSING_REQUIRED_EVIDENCE,
              Severity.WARNING,
              "Claim has no required criteria, so nothing can verify it.",
              claim.id(),
              null));
    }
    for (Criterion criterion : required) {
      boolean supported =
          target.evidence().stream()
              .anyMatch(
                  e -> criterion.id().equals(e.criterionId()) && e.relation() == Relation.SUPPORTS);
      if (!supported) {
        findings.add(
            finding(
                Rule.MISSING_REQUIRED_EVIDENCE,
                Severity.WARNING,
                "Required criterion '" + criterion.key() + "' has no linked supporting evidence.",
                claim.id(),
                criterion.id()));
      }
    }
    if (evaluation.status() == ClaimStatus.UNVERIFIED) {
      findings.add(
          finding(
              Rule.UNVERIFIED_CLAIM,
              Severity.WARNING,
              "Claim is unverified under policy " + policy.version() + ".",
              claim.id(),
              null));
    }
    findings.addAll(contradictions(policy, target));
    grouped(
            Rule.REPORTED_ONLY_EVIDENCE,
            Severity.INFO,
            claim.id(),
            null,
            target.evidence(),
            e -> e.relation() != Relation.NEUTRAL && !policy.admits(e.origin()),
            " supporting or contradicting record(s) have origins that policy "
                + policy.version()
                + " does not admit.")
        .ifPresent(findings::add);
    return findings;
  }

  /**
   * Admissible contradictions of a required criterion are errors, one finding per criterion; the
   * rest is one warning.
   */
  private static List<Finding> contradictions(Policy policy, ClaimWithEvidence target) {
    Claim claim = target.claim();
    List<Finding> findings = new ArrayList<>();
    List<String> requiredIds = claim.required().stream().map(Criterion::id).toList();
    for (Criterion criterion : claim.required()) {
      grouped(
              Rule.CONTRADICTORY_EVIDENCE,
              Severity.ERROR,
              claim.id(),
              criterion.id(),
              target.evidence(),
              e -> isAdmissibleContradiction(policy, e) && criterion.id().equals(e.criterionId()),
              " admissible record(s) contradict required criterion '" + criterion.key() + "'.")
          .ifPresent(findings::add);
    }
    grouped(
            Rule.CONTRADICTORY_EVIDENCE,
            Severity.WARNING,
            claim.id(),
            null,
            target.evidence(),
            e ->
                e.relation() == Relation.CONTRADICTS
                    && !(policy.admits(e.origin()) && requiredIds.contains(e.criterionId())),
            " record(s) are recorded as contradicting the claim.")
        .ifPresent(findings::add);
    return findings;
  }

  private static boolean isAdmissibleContradiction(Policy policy, Evidence e) {
    return e.relation() == Relation.CONTRADICTS && policy.admits(e.origin());
  }

  private static java.util.Optional<Finding> grouped(
      Rule rule,
      Severity severity,
      String claimId,
      String criterionId,
      List<Evidence> evidence,
      Predicate<Evidence> match,
      String what) {
    List<String> ids = evidence.stream().filter(match).map(Evidence::id).sorted().toList();
    if (ids.isEmpty()) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        new Finding(
            rule,
            severity,
            ids.size() + what,
            claimId,
            criterionId,
            null,
            ids.size(),
            ids.subList(0, Math.min(Finding.MAX_IDS, ids.size()))));
  }

  private static java.util.Optional<Finding> assumptionFinding(Assumption assumption) {
    return switch (assumption.status()) {
      case REFUTED ->
          java.util.Optional.of(
              new Finding(
                  Rule.REFUTED_ASSUMPTION,
                  Severity.ERROR,
                  "Assumption is recorded as refuted: " + assumption.statement(),
                  null,
                  null,
                  assumption.id(),
                  0,
                  List.of()));
      case UNVERIFIED, INCONCLUSIVE ->
          java.util.Optional.of(
              new Finding(
                  Rule.UNRESOLVED_ASSUMPTION,
                  Severity.WARNING,
                  "Assumption is recorded as "
                      + assumption.status().wire()
                      + ": "
                      + assumption.statement(),
                  null,
                  null,
                  assumption.id(),
                  0,
                  List.of()));
      case SUPPORTED -> java.util.Optional.empty();
    };
  }

  private static Finding finding(
      Rule rule, Severity severity, String message, String claimId, String criterionId) {
    return new Finding(rule, severity, message, claimId, criterionId, null, 0, List.of());
  }

  private static DecisionStatus decisionStatus(
      List<ClaimEvaluation> evaluations, List<Assumption> assumptions, List<Finding> findings) {
    boolean blocked =
        evaluations.stream().anyMatch(e -> e.status() == ClaimStatus.CONTRADICTED)
            || assumptions.stream().anyMatch(a -> a.status() == AssumptionStatus.REFUTED);
    if (blocked) {
      return DecisionStatus.BLOCKED_RECOMMENDATION;
    }
    boolean warned = findings.stream().anyMatch(f -> f.severity() != Severity.INFO);
    return warned ? DecisionStatus.WARNING : DecisionStatus.PASS_WITH_CAVEATS;
  }
}
