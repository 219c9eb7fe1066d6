package dev.cortex.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.evidence.Records.Assumption;
import dev.cortex.evidence.Records.Claim;
import dev.cortex.evidence.Records.ClaimWithEvidence;
import dev.cortex.evidence.Records.Criterion;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.evidence.ReviewModel.ClaimEvaluation;
import dev.cortex.evidence.ReviewModel.CriterionOutcome;
import dev.cortex.evidence.ReviewModel.Finding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Policy evaluation and rule ordering, table-driven over the seed's tables. */
class ReviewerTest {
  static final Instant T = Instant.parse("2026-11-05T00:00:00Z");
  static int counter;

  static Claim claim(String id, Criterion... criteria) {
    return new Claim(id, "p", "statement of " + id, List.of(criteria), T);
  }

  static Criterion required(String id, String key) {
    return new Criterion(id, key, key, true);
  }

  static Criterion optional(String id, String key) {
    return new Criterion(id, key, key, false);
  }

  static Evidence ev(String id, String criterionId, Relation relation, Origin origin) {
    return new Evidence(
        id,
        "p",
        "c1",
        criterionId,
        "summary",
        relation,
        origin,
        SourceType.TEST,
        null,
        null,
        null,
        null,
        T);
  }

  static Assumption assumption(String id, AssumptionStatus status) {
    return new Assumption(id, "p", "assumption " + id, null, null, status, T, T);
  }

  /**
   * Evidence from a compact spelling: "s:u" = supports, user_attested; "c:a" = contradicts,
   * agent_reported.
   */
  static List<Evidence> linked(String criterionId, String spec) {
    List<Evidence> list = new ArrayList<>();
    if (spec.isBlank()) {
      return list;
    }
    for (String item : spec.trim().split(" ")) {
      Relation relation =
          switch (item.charAt(0)) {
            case 's' -> Relation.SUPPORTS;
            case 'c' -> Relation.CONTRADICTS;
            default -> Relation.NEUTRAL;
          };
      Origin origin =
          switch (item.charAt(2)) {
            case 'u' -> Origin.USER_ATTESTED;
            case 't' -> Origin.TOOL_OUTPUT_RECORDED;
            default -> Origin.AGENT_REPORTED;
          };
      list.add(ev(String.format("e%03d", ++counter), criterionId, relation, origin));
    }
    return list;
  }

  @ParameterizedTest(name = "{0} [{1}] -> {2}, claim {3}")
  @CsvSource({
    // policy,        evidence on the one required criterion, outcome,            claim status, as
    // reported
    "strict-1,        '',               missing_evidence,    unverified,   false",
    "strict-1,        's:a',            unverified_source,   unverified,   true",
    "strict-1,        's:u s:t',        unverified_source,   unverified,   true",
    "strict-1,        'c:u',            reported_failure,    unverified,   false",
    "strict-1,        's:a c:a',        conflicting_reports, unverified,   true",
    "strict-1,        'n:u',            missing_evidence,    unverified,   false",
    "provisional-1,   's:a',            unverified_source,   unverified,   true",
    "provisional-1,   's:u',            supported,           verified,     true",
    "provisional-1,   's:t',            supported,           verified,     true",
    "provisional-1,   'c:t',            reported_failure,    contradicted, false",
    "provisional-1,   's:u c:u',        conflicting_reports, contradicted, true",
    "provisional-1,   's:u c:a',        conflicting_reports, verified,     true",
    "provisional-1,   's:a c:u',        conflicting_reports, contradicted, true",
    "provisional-1,   'n:u n:t',        missing_evidence,    unverified,   false",
  })
  void evaluate_oneRequiredCriterion(
      String policy, String evidence, String outcome, String status, boolean asReported) {
    ClaimWithEvidence target =
        new ClaimWithEvidence(claim("c1", required("k1", "only")), linked("k1", evidence));

    ClaimEvaluation evaluation = Reviewer.evaluate(Policy.ofVersion(policy), target);

    assertThat(evaluation.criterionEvaluations())
        .extracting(e -> e.outcome().wire())
        .containsExactly(outcome);
    assertThat(evaluation.status().wire()).isEqualTo(status);
    assertThat(evaluation.criteriaSatisfiedAsReported()).isEqualTo(asReported);
    assertThat(evaluation.assurance())
        .isEqualTo(status.equals("unverified") ? "none" : "provisional");
  }

  @Test
  void evaluate_claimLevelAndOptionalCriterionEvidence_giveNoCoverage() {
    Claim claim = claim("c1", required("k1", "req"), optional("k2", "opt"));
    List<Evidence> evidence = new ArrayList<>(linked(null, "s:u s:u"));
    evidence.addAll(linked("k2", "s:u"));

    ClaimEvaluation evaluation =
        Reviewer.evaluate(Policy.PROVISIONAL_1, new ClaimWithEvidence(claim, evidence));

    assertThat(evaluation.status().wire()).isEqualTo("unverified");
    assertThat(evaluation.criteriaSatisfiedAsReported()).isFalse();
    assertThat(evaluation.criterionEvaluations())
        .extracting(e -> e.criterionId())
        .containsExactly("k1");
  }

  @Test
  void evaluate_listsRequiredCriteriaByOutcomeOrderThenKey() {
    Claim claim =
        claim(
            "c1",
            required("i1", "zeta"),
            required("i2", "alpha"),
            required("i3", "mid"),
            required("i4", "beta"),
            required("i5", "gamma"));
    List<Evidence> evidence = new ArrayList<>();
    evidence.addAll(linked("i1", "s:u"));
    evidence.addAll(linked("i2", "s:u"));
    evidence.addAll(linked("i3", "s:a c:a"));
    evidence.addAll(linked("i5", "c:a"));

    ClaimEvaluation evaluation =
        Reviewer.evaluate(Policy.PROVISIONAL_1, new ClaimWithEvidence(claim, evidence));

    assertThat(evaluation.criterionEvaluations())
        .extracting(e -> e.outcome() + "/" + e.key())
        .containsExactly(
            CriterionOutcome.CONFLICTING_REPORTS + "/mid",
            CriterionOutcome.REPORTED_FAILURE + "/gamma",
            CriterionOutcome.MISSING_EVIDENCE + "/beta",
            CriterionOutcome.SUPPORTED + "/alpha",
            CriterionOutcome.SUPPORTED + "/zeta");
  }

  @Test
  void reviewClaim_strictPolicy_findingsSortedBySeverityRuleAndIds() {
    Claim claim = claim("c1", required("k2", "second"), required("k1", "first"));
    List<Evidence> evidence = new ArrayList<>(linked("k1", "s:a c:u"));

    ReviewModel.Outcome outcome =
        Reviewer.reviewClaim(Policy.STRICT_1, new ClaimWithEvidence(claim, evidence));

    assertThat(outcome.status()).isEqualTo("unverified");
    assertThat(outcome.findings())
        .extracting(f -> f.severity().wire() + " " + f.ruleId() + " " + f.criterionId())
        .containsExactly(
            "warning CONTRADICTORY_EVIDENCE null",
            "warning MISSING_REQUIRED_EVIDENCE k2",
            "warning UNVERIFIED_CLAIM null",
            "info REPORTED_ONLY_EVIDENCE null");
  }

  @Test
  void
      reviewClaim_admissibleContradictionOfRequiredCriterion_isErrorPerCriterion_othersOneWarning() {
    Claim claim = claim("c1", required("k1", "one"), optional("k9", "extra"));
    List<Evidence> evidence = new ArrayList<>();
    evidence.addAll(linked("k1", "c:u c:t c:a"));
    evidence.addAll(linked("k9", "c:u"));
    evidence.addAll(linked(null, "c:t"));

    List<Finding> findings =
        Reviewer.reviewClaim(Policy.PROVISIONAL_1, new ClaimWithEvidence(claim, evidence))
            .findings();

    Finding error = findings.get(0);
    assertThat(error.ruleId()).isEqualTo(ReviewModel.Rule.CONTRADICTORY_EVIDENCE);
    assertThat(error.severity()).isEqualTo(ReviewModel.Severity.ERROR);
    assertThat(error.criterionId()).isEqualTo("k1");
    assertThat(error.evidenceCount()).isEqualTo(2);
    Finding warning =
        findings.stream()
            .filter(
                f ->
                    f.ruleId() == ReviewModel.Rule.CONTRADICTORY_EVIDENCE
                        && f.severity() == ReviewModel.Severity.WARNING)
            .findFirst()
            .orElseThrow();
    assertThat(warning.evidenceCount()).isEqualTo(3);
  }

  @Test
  void groupedFinding_reportsTotalAndAtMostThreeSortedIds() {
    Claim claim = claim("c1", required("k1", "one"));

    Finding reportedOnly =
        Reviewer.reviewClaim(
                Policy.STRICT_1, new ClaimWithEvidence(claim, linked("k1", "s:a s:a s:a s:a s:a")))
            .findings()
            .stream()
            .filter(f -> f.ruleId() == ReviewModel.Rule.REPORTED_ONLY_EVIDENCE)
            .findFirst()
            .orElseThrow();

    assertThat(reportedOnly.evidenceCount()).isEqualTo(5);
    assertThat(reportedOnly.evidenceIds()).hasSize(3).isSorted();
  }

  @Test
  void groupedFinding_overManyTallies_keepsTheThreeSmallestIdsOfAll() {
    Claim claim = claim("c1", required("k1", "one"), optional("k2", "two"));
    List<Evidence> evidence =
        List.of(
            ev("e7", "k1", Relation.SUPPORTS, Origin.AGENT_REPORTED),
            ev("e5", "k1", Relation.CONTRADICTS, Origin.AGENT_REPORTED),
            ev("e9", "k2", Relation.SUPPORTS, Origin.AGENT_REPORTED),
            ev("e3", "k2", Relation.SUPPORTS, Origin.AGENT_REPORTED),
            ev("e8", null, Relation.CONTRADICTS, Origin.AGENT_REPORTED),
            ev("e1", null, Relation.SUPPORTS, Origin.AGENT_REPORTED),
            ev("e6", "k1", Relation.SUPPORTS, Origin.AGENT_REPORTED),
            ev("e4", "k1", Relation.SUPPORTS, Origin.USER_ATTESTED),
            ev("e2", "k1", Relation.NEUTRAL, Origin.AGENT_REPORTED));

    Finding reportedOnly =
        Reviewer.reviewClaim(Policy.STRICT_1, new ClaimWithEvidence(claim, evidence))
            .findings()
            .stream()
            .filter(f -> f.ruleId() == ReviewModel.Rule.REPORTED_ONLY_EVIDENCE)
            .findFirst()
            .orElseThrow();

    assertThat(reportedOnly.evidenceCount()).isEqualTo(8);
    assertThat(reportedOnly.evidenceIds()).containsExactly("e1", "e3", "e4");
  }

  @Test
  void reviewDecision_contradictedClaim_isBlockedRecommendation() {
    ClaimWithEvidence contradicted =
        new ClaimWithEvidence(claim("c1", required("k1", "one")), linked("k1", "c:u"));

    assertThat(
            Reviewer.reviewDecision(
                    Policy.PROVISIONAL_1, List.of(contradicted.tallies()), List.of())
                .status())
        .isEqualTo("blocked_recommendation");
  }

  @Test
  void reviewDecision_refutedAssumption_isBlockedRecommendation_withErrorFirst() {
    ReviewModel.Outcome outcome =
        Reviewer.reviewDecision(
            Policy.STRICT_1,
            List.of(),
            List.of(
                assumption("a2", AssumptionStatus.INCONCLUSIVE),
                assumption("a1", AssumptionStatus.REFUTED)));

    assertThat(outcome.status()).isEqualTo("blocked_recommendation");
    assertThat(outcome.findings())
        .extracting(f -> f.ruleId() + " " + f.assumptionId())
        .containsExactly("REFUTED_ASSUMPTION a1", "UNRESOLVED_ASSUMPTION a2");
  }

  @Test
  void reviewDecision_unresolvedAssumptionOrUnverifiedClaim_isWarning() {
    assertThat(
            Reviewer.reviewDecision(
                    Policy.STRICT_1,
                    List.of(),
                    List.of(assumption("a1", AssumptionStatus.UNVERIFIED)))
                .status())
        .isEqualTo("warning");
    ClaimWithEvidence unverified =
        new ClaimWithEvidence(claim("c1", required("k1", "one")), linked("k1", "s:a"));
    assertThat(
            Reviewer.reviewDecision(Policy.STRICT_1, List.of(unverified.tallies()), List.of())
                .status())
        .isEqualTo("warning");
  }

  @Test
  void reviewDecision_verifiedClaimsAndSupportedAssumptions_passWithCaveats() {
    ClaimWithEvidence verified =
        new ClaimWithEvidence(claim("c1", required("k1", "one")), linked("k1", "s:u s:a"));

    ReviewModel.Outcome outcome =
        Reviewer.reviewDecision(
            Policy.PROVISIONAL_1,
            List.of(verified.tallies()),
            List.of(assumption("a1", AssumptionStatus.SUPPORTED)));

    assertThat(outcome.status()).isEqualTo("pass_with_caveats");
    assertThat(outcome.findings())
        .extracting(f -> f.ruleId().name())
        .containsExactly("REPORTED_ONLY_EVIDENCE");
  }

  @Test
  void reviewClaim_noRequiredCriteria_isMissingRequiredEvidence() {
    Claim claim = claim("c1", optional("k1", "opt"));

    ReviewModel.Outcome outcome =
        Reviewer.reviewClaim(
            Policy.PROVISIONAL_1, new ClaimWithEvidence(claim, linked("k1", "s:u")));

    assertThat(outcome.status()).isEqualTo("unverified");
    assertThat(outcome.findings())
        .extracting(f -> f.ruleId().name())
        .contains("MISSING_REQUIRED_EVIDENCE", "UNVERIFIED_CLAIM");
  }
}
