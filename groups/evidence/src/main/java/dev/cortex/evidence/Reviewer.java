package dev.cortex.evidence;

import dev.cortex.evidence.Records.Assumption;
import dev.cortex.evidence.Records.Claim;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.evidence.Records.ClaimWithEvidence;
import dev.cortex.evidence.Records.Criterion;
import dev.cortex.evidence.Records.Tally;
import dev.cortex.evidence.ReviewModel.ClaimEvaluation;
import dev.cortex.evidence.ReviewModel.ClaimStatus;
import dev.cortex.evidence.ReviewModel.CriterionEvaluation;
import dev.cortex.evidence.ReviewModel.CriterionOutcome;
import dev.cortex.evidence.ReviewModel.DecisionStatus;
import dev.cortex.evidence.ReviewModel.Finding;
import dev.cortex.evidence.ReviewModel.Rule;
import dev.cortex.evidence.ReviewModel.Severity;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Deterministic reviews: the same records and policy always give the same evaluations and the same
 * findings in the same order. Pure: no storage, no clock. Works on tallies of the evidence, so its
 * cost grows with criteria, relations and origins, not with the number of records.
 */
final class Reviewer {
  private Reviewer() {}

  static ReviewModel.Outcome reviewClaim(Policy policy, ClaimWithEvidence target) {
    return reviewClaim(policy, target.tallies());
  }

  /** Reviews one claim: the outcome's status is the claim's status. */
  static ReviewModel.Outcome reviewClaim(Policy policy, ClaimTallies target) {
    Grouped grouped = Grouped.of(target);
    ClaimEvaluation evaluation = evaluate(policy, grouped);
    List<Finding> findings = claimFindings(policy, grouped, evaluation);
    findings.sort(Finding.ORDER);
    return new ReviewModel.Outcome(
        evaluation.status().wire(), policy, List.of(evaluation), findings);
  }

  /** Reviews a proposed decision over the referenced claims and assumptions. */
  static ReviewModel.Outcome reviewDecision(
      Policy policy, List<ClaimTallies> claims, List<Assumption> assumptions) {
    List<ClaimEvaluation> evaluations = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    for (ClaimTallies claim : claims) {
      Grouped grouped = Grouped.of(claim);
      ClaimEvaluation evaluation = evaluate(policy, grouped);
      evaluations.add(evaluation);
      findings.addAll(claimFindings(policy, grouped, evaluation));
    }
    for (Assumption assumption : assumptions) {
      assumptionFinding(assumption).ifPresent(findings::add);
    }
    findings.sort(Finding.ORDER);
    return new ReviewModel.Outcome(
        decisionStatus(evaluations, assumptions, findings).wire(), policy, evaluations, findings);
  }

  static ClaimEvaluation evaluate(Policy policy, ClaimWithEvidence target) {
    return evaluate(policy, target.tallies());
  }

  static ClaimEvaluation evaluate(Policy policy, ClaimTallies target) {
    return evaluate(policy, Grouped.of(target));
  }

  private static ClaimEvaluation evaluate(Policy policy, Grouped target) {
    List<Criterion> required = target.required();
    List<CriterionEvaluation> outcomes = new ArrayList<>(required.size());
    boolean anyAdmissibleContradiction = false;
    boolean allAdmissiblySupported = !required.isEmpty();
    boolean allReported = !required.isEmpty();
    for (Criterion criterion : required) {
      Linked linked = Linked.of(policy, target.of(criterion));
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
    return new ClaimEvaluation(target.claim().id(), status, assurance, allReported, outcomes);
  }

  /**
   * A claim's required criteria and its tallies grouped by criterion, worked out once per review
   * and shared by the evaluation and the findings.
   */
  private record Grouped(
      Claim claim,
      List<Tally> tallies,
      List<Criterion> required,
      Set<String> requiredIds,
      Map<String, List<Tally>> byCriterion) {
    static Grouped of(ClaimTallies target) {
      Claim claim = target.claim();
      List<Criterion> required = new ArrayList<>(claim.criteria().size());
      Set<String> requiredIds = new HashSet<>();
      for (Criterion criterion : claim.criteria()) {
        if (criterion.required()) {
          required.add(criterion);
          requiredIds.add(criterion.id());
        }
      }
      return new Grouped(
          claim, target.tallies(), required, requiredIds, Reviewer.byCriterion(target.tallies()));
    }

    /** The tallies of one criterion. */
    List<Tally> of(Criterion criterion) {
      return byCriterion.getOrDefault(criterion.id(), List.of());
    }
  }

  /** Counts of the evidence linked to one criterion. */
  private record Linked(
      int supports, int contradictions, int admissibleSupports, int admissibleContradictions) {
    /** Counts over the tallies of one criterion. */
    static Linked of(Policy policy, List<Tally> tallies) {
      int supports = 0;
      int contradictions = 0;
      int admissibleSupports = 0;
      int admissibleContradictions = 0;
      for (Tally t : tallies) {
        int admissible = policy.admits(t.origin()) ? t.count() : 0;
        if (t.relation() == Relation.SUPPORTS) {
          supports += t.count();
          admissibleSupports += admissible;
        } else if (t.relation() == Relation.CONTRADICTS) {
          contradictions += t.count();
          admissibleContradictions += admissible;
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
      Policy policy, Grouped target, ClaimEvaluation evaluation) {
    Claim claim = target.claim();
    List<Finding> findings = new ArrayList<>();
    List<Criterion> required = target.required();
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
      if (!anySupports(target.of(criterion))) {
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
    contradictions(policy, target, findings);
    Group reportedOnly = new Group();
    for (Tally t : target.tallies()) {
      if (t.relation() != Relation.NEUTRAL && !policy.admits(t.origin())) {
        reportedOnly.add(t);
      }
    }
    if (reportedOnly.total > 0) {
      findings.add(
          reportedOnly.finding(
              Rule.REPORTED_ONLY_EVIDENCE,
              Severity.INFO,
              claim.id(),
              null,
              " supporting or contradicting record(s) have origins that policy "
                  + policy.version()
                  + " does not admit."));
    }
    return findings;
  }

  private static boolean anySupports(List<Tally> tallies) {
    for (Tally t : tallies) {
      if (t.relation() == Relation.SUPPORTS) {
        return true;
      }
    }
    return false;
  }

  /**
   * Admissible contradictions of a required criterion are errors, one per criterion; the rest is
   * one warning.
   */
  private static void contradictions(Policy policy, Grouped target, List<Finding> findings) {
    Claim claim = target.claim();
    for (Criterion criterion : target.required()) {
      Group admitted = new Group();
      for (Tally t : target.of(criterion)) {
        if (t.relation() == Relation.CONTRADICTS && policy.admits(t.origin())) {
          admitted.add(t);
        }
      }
      if (admitted.total > 0) {
        findings.add(
            admitted.finding(
                Rule.CONTRADICTORY_EVIDENCE,
                Severity.ERROR,
                claim.id(),
                criterion.id(),
                " admissible record(s) contradict required criterion '" + criterion.key() + "'."));
      }
    }
    Group rest = new Group();
    for (Tally t : target.tallies()) {
      if (t.relation() == Relation.CONTRADICTS
          && !(policy.admits(t.origin()) && target.requiredIds().contains(t.criterionId()))) {
        rest.add(t);
      }
    }
    if (rest.total > 0) {
      findings.add(
          rest.finding(
              Rule.CONTRADICTORY_EVIDENCE,
              Severity.WARNING,
              claim.id(),
              null,
              " record(s) are recorded as contradicting the claim."));
    }
  }

  /**
   * The tallies one grouped finding covers: their total, and the {@value Finding#MAX_IDS} smallest
   * distinct IDs among them, in order.
   */
  private static final class Group {
    private final String[] smallest = new String[Finding.MAX_IDS];
    private int kept;
    int total;

    void add(Tally t) {
      total += t.count();
      for (String id : t.firstIds()) {
        keep(id);
      }
    }

    private void keep(String id) {
      int at = kept;
      while (at > 0) {
        int order = smallest[at - 1].compareTo(id);
        if (order == 0) {
          return;
        }
        if (order < 0) {
          break;
        }
        at--;
      }
      if (at == smallest.length) {
        return;
      }
      int last = Math.min(kept, smallest.length - 1);
      System.arraycopy(smallest, at, smallest, at + 1, last - at);
      smallest[at] = id;
      kept = Math.min(kept + 1, smallest.length);
    }

    Finding finding(Rule rule, Severity severity, String claimId, String criterionId, String what) {
      List<String> ids = List.of(Arrays.copyOf(smallest, kept));
      return new Finding(rule, severity, total + what, claimId, criterionId, null, total, ids);
    }
  }

  /** The tallies of each criterion (claim-level ones are left out: no criterion asks for them). */
  private static Map<String, List<Tally>> byCriterion(List<Tally> tallies) {
    Map<String, List<Tally>> grouped = new HashMap<>();
    for (Tally t : tallies) {
      if (t.criterionId() != null) {
        grouped.computeIfAbsent(t.criterionId(), k -> new ArrayList<>(9)).add(t);
      }
    }
    return grouped;
  }

  private static Optional<Finding> assumptionFinding(Assumption assumption) {
    return switch (assumption.status()) {
      case REFUTED ->
          Optional.of(
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
          Optional.of(
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
      case SUPPORTED -> Optional.empty();
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
