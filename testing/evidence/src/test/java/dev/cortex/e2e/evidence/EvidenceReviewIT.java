package dev.cortex.e2e.evidence;

import static dev.cortex.testing.EvidenceServer.criterion;
import static dev.cortex.testing.EvidenceServer.criterionId;
import static dev.cortex.testing.EvidenceServer.findings;
import static dev.cortex.testing.EvidenceServer.newProject;
import static dev.cortex.testing.EvidenceServer.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.EvidenceServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Claim and decision reviews over MCP on stdio, on the built program, under both policies. Every
 * test works in its own project of one shared server; {@code cortex evidence set-policy} runs as a
 * second process on the same database before the claim is reviewed.
 */
class EvidenceReviewIT {
  @TempDir static Path home;
  static EvidenceServer server;

  @BeforeAll
  static void start() {
    server = EvidenceServer.start(home);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  // ---- claim reviews

  @Test
  void reviewClaim_strict1_isUnverifiedWithMissingEvidenceWarningAndReportedOnlyInfo() {
    String project = newProject("strict");
    JsonNode claim = server.createClaim(project, "covered", "uncovered");
    String evidenceId =
        server
            .addEvidence(project, claim, "covered", "supports", "user_attested")
            .path("evidence_id")
            .asString();

    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());

    assertThat(review.path("policy_version").asString()).isEqualTo("strict-1");
    assertThat(review.path("status").asString()).isEqualTo("unverified");
    JsonNode evaluation = review.path("claim_evaluations").get(0);
    assertThat(evaluation.path("status").asString()).isEqualTo("unverified");
    assertThat(evaluation.path("assurance").asString()).isEqualTo("none");
    assertThat(evaluation.path("criteria_satisfied_as_reported").asBoolean()).isFalse();
    assertThat(outcomes(evaluation))
        .containsExactly("missing_evidence uncovered", "unverified_source covered");
    assertThat(findings(review))
        .containsExactly(
            "warning MISSING_REQUIRED_EVIDENCE",
            "warning UNVERIFIED_CLAIM",
            "info REPORTED_ONLY_EVIDENCE");
    JsonNode findings = review.path("findings");
    assertThat(findings.get(0).path("criterion_id").asString())
        .isEqualTo(criterionId(claim, "uncovered"));
    assertThat(findings.get(2).path("evidence_count").asInt()).isEqualTo(1);
    assertThat(findings.get(2).path("evidence_ids").size()).isEqualTo(1);
    assertThat(findings.get(2).path("evidence_ids").get(0).asString()).isEqualTo(evidenceId);
  }

  @Test
  void reviewClaim_provisional1WithUserAttestedSupportOnEveryRequiredCriterion_isVerified()
      throws Exception {
    String project = newProject("verified");
    JsonNode claim =
        server.createClaim(
            project,
            List.of(criterion("one", true), criterion("two", true), criterion("extra", false)));
    server.setPolicy(project, "provisional-1");
    server.addEvidence(project, claim, "two", "supports", "user_attested");
    server.addEvidence(project, claim, "one", "supports", "user_attested");

    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());

    assertThat(review.path("policy_version").asString()).isEqualTo("provisional-1");
    assertThat(review.path("status").asString()).isEqualTo("verified");
    JsonNode evaluation = review.path("claim_evaluations").get(0);
    assertThat(evaluation.path("status").asString()).isEqualTo("verified");
    assertThat(evaluation.path("assurance").asString()).isEqualTo("provisional");
    assertThat(evaluation.path("criteria_satisfied_as_reported").asBoolean()).isTrue();
    assertThat(outcomes(evaluation)).containsExactly("supported one", "supported two");
    assertThat(review.path("findings").isEmpty()).isTrue();
  }

  @Test
  void reviewClaim_provisional1UserAttestedContradictionOfRequiredCriterion_isContradicted()
      throws Exception {
    String project = newProject("contradicted");
    server.setPolicy(project, "provisional-1");
    JsonNode claim = server.createClaim(project, "holds", "breaks");
    server.addEvidence(project, claim, "holds", "supports", "user_attested");
    String against =
        server
            .addEvidence(project, claim, "breaks", "contradicts", "user_attested")
            .path("evidence_id")
            .asString();

    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());

    assertThat(review.path("status").asString()).isEqualTo("contradicted");
    JsonNode evaluation = review.path("claim_evaluations").get(0);
    assertThat(evaluation.path("assurance").asString()).isEqualTo("provisional");
    assertThat(outcomes(evaluation)).containsExactly("reported_failure breaks", "supported holds");
    assertThat(findings(review))
        .containsExactly("error CONTRADICTORY_EVIDENCE", "warning MISSING_REQUIRED_EVIDENCE");
    JsonNode error = review.path("findings").get(0);
    assertThat(error.path("criterion_id").asString()).isEqualTo(criterionId(claim, "breaks"));
    assertThat(error.path("evidence_ids").get(0).asString()).isEqualTo(against);
  }

  @Test
  void reviewClaim_criterionEvaluations_areOrderedByOutcomeThenKey() throws Exception {
    String project = newProject("order");
    server.setPolicy(project, "provisional-1");
    JsonNode claim =
        server.createClaim(project, "a-sup", "b-unv", "c2-miss", "c1-miss", "d-fail", "e-conf");
    server.addEvidence(project, claim, "a-sup", "supports", "user_attested");
    server.addEvidence(project, claim, "b-unv", "supports", "agent_reported");
    server.addEvidence(project, claim, "d-fail", "contradicts", "agent_reported");
    server.addEvidence(project, claim, "e-conf", "supports", "agent_reported");
    server.addEvidence(project, claim, "e-conf", "contradicts", "agent_reported");

    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());

    assertThat(outcomes(review.path("claim_evaluations").get(0)))
        .containsExactly(
            "conflicting_reports e-conf",
            "reported_failure d-fail",
            "missing_evidence c1-miss",
            "missing_evidence c2-miss",
            "unverified_source b-unv",
            "supported a-sup");
    assertThat(review.path("status").asString()).isEqualTo("unverified");
  }

  @Test
  void reviewClaim_manyReportedOnlyRecords_groupsThemWithTotalAndThreeSortedIds() {
    String project = newProject("grouped");
    JsonNode claim = server.createClaim(project, "k");
    List<String> evidenceIds = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      evidenceIds.add(
          server
              .addEvidence(project, claim, "k", "supports", "agent_reported")
              .path("evidence_id")
              .asString());
    }
    evidenceIds.sort(Comparator.naturalOrder());

    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());

    JsonNode grouped = review.path("findings").get(review.path("findings").size() - 1);
    assertThat(grouped.path("rule_id").asString()).isEqualTo("REPORTED_ONLY_EVIDENCE");
    assertThat(grouped.path("evidence_count").asInt()).isEqualTo(4);
    List<String> shown = new ArrayList<>();
    grouped.path("evidence_ids").forEach(id -> shown.add(id.asString()));
    assertThat(shown).containsExactlyElementsOf(evidenceIds.subList(0, 3));
    assertThat(
            review
                .path("claim_evaluations")
                .get(0)
                .path("criteria_satisfied_as_reported")
                .asBoolean())
        .isTrue();
  }

  private static List<String> outcomes(JsonNode evaluation) {
    List<String> outcomes = new ArrayList<>();
    for (JsonNode e : evaluation.path("criterion_evaluations")) {
      outcomes.add(e.path("outcome").asString() + " " + e.path("key").asString());
    }
    return outcomes;
  }

  // ---- decision reviews

  @Test
  void reviewDecision_blockedWarningOrPassWithCaveats_byTheReferencedRecords() throws Exception {
    String project = newProject("decision");
    server.setPolicy(project, "provisional-1");
    JsonNode good = server.createClaim(project, "k");
    server.addEvidence(project, good, "k", "supports", "user_attested");
    JsonNode bad = server.createClaim(project, "k");
    server.addEvidence(project, bad, "k", "contradicts", "user_attested");
    String goodId = good.path("claim_id").asString();
    String badId = bad.path("claim_id").asString();
    String refuted = assumption(project, "refuted");
    String unresolved = assumption(project, "inconclusive");
    String supported = assumption(project, "supported");

    JsonNode contradicted = server.reviewDecision(project, List.of(goodId, badId), List.of());
    JsonNode refutedReview = server.reviewDecision(project, List.of(goodId), List.of(refuted));
    JsonNode warned = server.reviewDecision(project, List.of(goodId), List.of(unresolved));
    JsonNode passed = server.reviewDecision(project, List.of(goodId), List.of(supported));

    assertThat(contradicted.path("status").asString()).isEqualTo("blocked_recommendation");
    assertThat(values(contradicted.path("claim_evaluations"), "status"))
        .containsExactly("verified", "contradicted");
    assertThat(refutedReview.path("status").asString()).isEqualTo("blocked_recommendation");
    assertThat(findings(refutedReview)).containsExactly("error REFUTED_ASSUMPTION");
    assertThat(refutedReview.path("findings").get(0).path("assumption_id").asString())
        .isEqualTo(refuted);
    assertThat(warned.path("status").asString()).isEqualTo("warning");
    assertThat(findings(warned)).containsExactly("warning UNRESOLVED_ASSUMPTION");
    assertThat(passed.path("status").asString()).isEqualTo("pass_with_caveats");
    assertThat(passed.path("findings").isEmpty()).isTrue();
    assertThat(passed.path("target_type").asString()).isEqualTo("decision");
    assertThat(passed.path("target_id").isNull()).isTrue();
    assertThat(passed.path("decision").asString()).isEqualTo("ship it");
    assertThat(passed.path("claim_ids").size()).isEqualTo(1);
    assertThat(passed.path("claim_ids").get(0).asString()).isEqualTo(goodId);
    assertThat(passed.path("assumption_ids").get(0).asString()).isEqualTo(supported);
  }

  @Test
  void reviewDecision_unresolvedAssumptionUnderStrict1_isWarning() {
    String project = newProject("decision-strict");
    String assumption =
        server.trackAssumption(project, "the cache is warm").path("assumption_id").asString();

    JsonNode review = server.reviewDecision(project, List.of(), List.of(assumption));

    assertThat(review.path("policy_version").asString()).isEqualTo("strict-1");
    assertThat(review.path("status").asString()).isEqualTo("warning");
    assertThat(review.path("claim_evaluations").isEmpty()).isTrue();
    assertThat(findings(review)).containsExactly("warning UNRESOLVED_ASSUMPTION");
  }

  private String assumption(String project, String status) {
    String id =
        server.trackAssumption(project, "assumed " + status).path("assumption_id").asString();
    server.updateAssumption(project, id, status, "assessed " + status);
    return id;
  }

  @Test
  void review_savedSnapshots_keepTheirStatusAfterLaterEvidence() throws Exception {
    String project = newProject("snapshot");
    server.setPolicy(project, "provisional-1");
    JsonNode claim = server.createClaim(project, "k");
    String claimId = claim.path("claim_id").asString();
    server.addEvidence(project, claim, "k", "supports", "user_attested");
    JsonNode first = server.reviewClaim(project, claimId);
    server.addEvidence(project, claim, "k", "contradicts", "tool_output_recorded");

    JsonNode second = server.reviewClaim(project, claimId);

    assertThat(first.path("status").asString()).isEqualTo("verified");
    assertThat(second.path("status").asString()).isEqualTo("contradicted");
    Map<String, JsonNode> saved = new HashMap<>();
    for (JsonNode review : server.context(project).path("reviews")) {
      saved.put(review.path("review_id").asString(), review);
    }
    assertThat(saved).hasSize(2);
    for (JsonNode review : List.of(first, second)) {
      JsonNode summary = saved.get(review.path("review_id").asString());
      assertThat(summary).as("saved %s", review.path("review_id")).isNotNull();
      for (String field :
          List.of("status", "policy_version", "target_type", "target_id", "created_at")) {
        assertThat(summary.path(field)).as(field).isEqualTo(review.path(field));
      }
    }
  }
}
