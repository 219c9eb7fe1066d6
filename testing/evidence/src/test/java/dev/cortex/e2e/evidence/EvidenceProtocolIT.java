package dev.cortex.e2e.evidence;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.EvidenceServer.criterion;
import static dev.cortex.testing.EvidenceServer.criterionId;
import static dev.cortex.testing.EvidenceServer.newProject;
import static dev.cortex.testing.EvidenceServer.values;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.EvidenceServer;
import dev.cortex.testing.Outcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The evidence ledger over MCP on stdio, on the built program: registration, evidence, assumptions,
 * context recovery and project isolation. Every test works in its own project of one shared server.
 * Reviews are in {@link EvidenceReviewIT}, refused calls in {@link EvidenceErrorsIT}.
 */
class EvidenceProtocolIT {
  static final String DIGEST = "0123456789abcdef".repeat(4);

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

  // ---- registration

  @Test
  void createClaim_newProject_returnsCriteriaInOrderUnverifiedUnderStrict1() {
    String project = newProject("register");

    JsonNode claim =
        server.createClaim(
            project,
            List.of(
                criterion("zeta", true),
                criterion("alpha", false),
                args("key", "mid", "description", "required by default")));

    assertThat(claim.path("claim_id").asString()).isNotBlank();
    assertThat(claim.path("project_id").asString()).isEqualTo(project);
    assertThat(claim.path("status").asString()).isEqualTo("unverified");
    assertThat(values(claim.path("criteria"), "key")).containsExactly("zeta", "alpha", "mid");
    assertThat(values(claim.path("criteria"), "criterion_id"))
        .doesNotHaveDuplicates()
        .allSatisfy(id -> assertThat(id).isNotBlank());
    assertThat(Instant.parse(claim.path("created_at").asString())).isNotNull();
    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());
    assertThat(review.path("policy_version").asString()).isEqualTo("strict-1");
    assertThat(review.path("target_type").asString()).isEqualTo("claim");
    assertThat(review.path("target_id").asString()).isEqualTo(claim.path("claim_id").asString());
    assertThat(values(review.path("claim_evaluations").get(0).path("criterion_evaluations"), "key"))
        .containsExactly("mid", "zeta");
    JsonNode stored = server.context(project).path("claims").get(0);
    assertThat(values(stored.path("criteria"), "required"))
        .containsExactly("true", "false", "true");
    assertThat(values(stored.path("criteria"), "criterion_id"))
        .isEqualTo(values(claim.path("criteria"), "criterion_id"));
  }

  @Test
  void tools_boundaryValues_areAccepted() {
    String project = newProject("bounds");
    List<Map<String, Object>> criteria = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      criteria.add(criterion("c" + i, i == 31));
    }

    JsonNode claim =
        server.ok(
            "cortex_create_claim",
            args("project_id", project, "statement", "s".repeat(4000), "criteria", criteria));
    JsonNode none =
        server.ok(
            "cortex_track_assumption",
            args("project_id", project, "statement", "a", "confidence", 0));
    JsonNode full =
        server.ok(
            "cortex_track_assumption",
            args("project_id", project, "statement", "b", "confidence", 1));
    JsonNode upper =
        server.ok(
            "cortex_add_evidence",
            args(
                "project_id",
                project,
                "claim_id",
                claim.path("claim_id").asString(),
                "content_summary",
                "c",
                "relation",
                "neutral",
                "source_type",
                "other",
                "artifact_digest",
                DIGEST.toUpperCase(java.util.Locale.ROOT)));

    assertThat(claim.path("criteria").size()).isEqualTo(32);
    assertThat(none.path("confidence").asDouble()).isZero();
    assertThat(full.path("confidence").asDouble()).isEqualTo(1.0);
    assertThat(upper.path("provenance").path("artifact_digest").asString())
        .isEqualToIgnoringCase(DIGEST);
    assertThat(upper.path("integrity_status").asString()).isEqualTo("digest_recorded");
  }

  // ---- evidence

  @Test
  void addEvidence_fullProvenance_echoesItWithUnverifiedOriginAndDigestRecorded() {
    String project = newProject("provenance");
    JsonNode claim = server.createClaim(project, "k");

    JsonNode evidence =
        server.ok(
            "cortex_add_evidence",
            args(
                "project_id", project,
                "claim_id", claim.path("claim_id").asString(),
                "criterion_id", criterionId(claim, "k"),
                "content_summary", "Integration test observed a 401 response",
                "relation", "contradicts",
                "origin", "user_attested",
                "source_type", "manual_observation",
                "source_ref", "pnpm test:integration",
                "collector", "ci-bot",
                "artifact_digest", DIGEST,
                "observed_at", "2026-11-05T01:30:00+01:00"));

    assertThat(evidence.path("evidence_id").asString()).isNotBlank();
    assertThat(evidence.path("claim_id").asString()).isEqualTo(claim.path("claim_id").asString());
    assertThat(evidence.path("criterion_id").asString()).isEqualTo(criterionId(claim, "k"));
    assertThat(evidence.path("relation").asString()).isEqualTo("contradicts");
    JsonNode provenance = evidence.path("provenance");
    assertThat(provenance.path("origin").asString()).isEqualTo("user_attested");
    assertThat(provenance.path("source_type").asString()).isEqualTo("manual_observation");
    assertThat(provenance.path("source_ref").asString()).isEqualTo("pnpm test:integration");
    assertThat(provenance.path("collector").asString()).isEqualTo("ci-bot");
    assertThat(provenance.path("artifact_digest").asString())
        .isEqualTo(DIGEST)
        .matches("[0-9a-f]{64}");
    assertThat(Instant.parse(provenance.path("observed_at").asString()))
        .isEqualTo(Instant.parse("2026-11-05T00:30:00Z"));
    assertThat(evidence.path("assurance").asString()).isEqualTo("unverified_origin");
    assertThat(evidence.path("integrity_status").asString()).isEqualTo("digest_recorded");
    assertThat(server.context(project).path("evidence").get(0)).isEqualTo(evidence);
  }

  @Test
  void addEvidence_withoutCriterionOriginOrDigest_isClaimLevelAgentReportedWithNoDigest() {
    String project = newProject("claim-level");
    JsonNode claim = server.createClaim(project, "k");

    JsonNode evidence =
        server.ok(
            "cortex_add_evidence",
            args(
                "project_id", project,
                "claim_id", claim.path("claim_id").asString(),
                "content_summary", "The build passed",
                "relation", "supports",
                "source_type", "build"));

    assertThat(evidence.path("criterion_id").isNull()).isTrue();
    JsonNode provenance = evidence.path("provenance");
    assertThat(provenance.path("origin").asString()).isEqualTo("agent_reported");
    for (String absent : List.of("source_ref", "collector", "observed_at", "artifact_digest")) {
      assertThat(provenance.path(absent).isNull()).as(absent).isTrue();
    }
    assertThat(evidence.path("assurance").asString()).isEqualTo("unverified_origin");
    assertThat(evidence.path("integrity_status").asString()).isEqualTo("no_digest");
    JsonNode review = server.reviewClaim(project, claim.path("claim_id").asString());
    assertThat(
            values(
                review.path("claim_evaluations").get(0).path("criterion_evaluations"), "outcome"))
        .as("claim-level evidence covers no criterion")
        .containsExactly("missing_evidence");
  }

  // ---- assumptions

  @Test
  void updateAssumption_twice_recordsPositionsAndStatusChanges() {
    String project = newProject("assumption");
    JsonNode tracked =
        server.ok(
            "cortex_track_assumption",
            args(
                "project_id",
                project,
                "statement",
                "Traffic stays under 1k rps",
                "context",
                "capacity plan",
                "confidence",
                0.7));
    String id = tracked.path("assumption_id").asString();

    JsonNode first = server.updateAssumption(project, id, "supported", "load test held");
    JsonNode second = server.updateAssumption(project, id, "refuted", "launch spike");

    assertThat(tracked.path("status").asString()).isEqualTo("unverified");
    assertThat(tracked.path("confidence").asDouble()).isEqualTo(0.7);
    assertThat(first.path("position").asInt()).isEqualTo(1);
    assertThat(first.path("previous_status").asString()).isEqualTo("unverified");
    assertThat(first.path("status").asString()).isEqualTo("supported");
    assertThat(second.path("position").asInt()).isEqualTo(2);
    assertThat(second.path("previous_status").asString()).isEqualTo("supported");
    assertThat(second.path("status").asString()).isEqualTo("refuted");
    JsonNode context = server.context(project);
    List<String> events = new ArrayList<>();
    for (JsonNode e : context.path("assumption_events")) {
      assertThat(e.path("assumption_id").asString()).isEqualTo(id);
      events.add(
          e.path("position").asInt()
              + " "
              + e.path("previous_status").asString()
              + ">"
              + e.path("new_status").asString()
              + " "
              + e.path("reason").asString());
    }
    assertThat(events)
        .containsExactlyInAnyOrder(
            "1 unverified>supported load test held", "2 supported>refuted launch spike");
    JsonNode stored = context.path("assumptions").get(0);
    assertThat(stored.path("status").asString()).isEqualTo("refuted");
    assertThat(stored.path("context").asString()).isEqualTo("capacity plan");
    assertThat(stored.path("confidence").asDouble()).isEqualTo(0.7);
  }

  @Test
  void trackAssumption_withoutConfidence_recordsNullConfidence() {
    JsonNode tracked = server.trackAssumption(newProject("no-confidence"), "assumed");

    assertThat(tracked.path("status").asString()).isEqualTo("unverified");
    assertThat(tracked.path("confidence").isNull()).isTrue();
  }

  // ---- context

  @Test
  void getContext_someCollections_returnsOnlyThose() {
    String project = newProject("only");
    server.createClaim(project, "k");

    JsonNode context =
        server.ok(
            "cortex_get_context",
            args("project_id", project, "include", List.of("reviews", "claims")));

    assertThat(fieldNames(context)).containsExactlyInAnyOrder("project_id", "reviews", "claims");
    assertThat(context.path("claims").size()).isEqualTo(1);
    assertThat(context.path("reviews").isEmpty()).isTrue();
  }

  @Test
  void getContext_limit_boundsEachCollectionNewestFirstDefault20() {
    String project = newProject("limit");
    List<JsonNode> created = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      created.add(server.createClaim(project, "k"));
    }
    created.sort(
        Comparator.comparing((JsonNode c) -> c.path("created_at").asString())
            .thenComparing(c -> c.path("claim_id").asString())
            .reversed());
    List<String> newestFirst = created.stream().map(c -> c.path("claim_id").asString()).toList();

    assertThat(claimIds(project, null)).containsExactlyElementsOf(newestFirst.subList(0, 20));
    assertThat(claimIds(project, 20)).containsExactlyElementsOf(newestFirst.subList(0, 20));
    assertThat(claimIds(project, 1)).containsExactly(newestFirst.get(0));
    assertThat(claimIds(project, 7)).containsExactlyElementsOf(newestFirst.subList(0, 7));
  }

  private List<String> claimIds(String project, Integer limit) {
    Map<String, Object> arguments = args("project_id", project, "include", List.of("claims"));
    if (limit != null) {
      arguments.put("limit", limit);
    }
    return values(server.ok("cortex_get_context", arguments).path("claims"), "claim_id");
  }

  @Test
  void getContext_projectWithoutRecords_returnsEmptyArrays() {
    String project = newProject("empty");

    JsonNode context = server.context(project);

    assertThat(context.path("project_id").asString()).isEqualTo(project);
    for (String collection : EvidenceServer.COLLECTIONS) {
      assertThat(context.path(collection).isArray()).as(collection).isTrue();
      assertThat(context.path(collection).isEmpty()).as(collection).isTrue();
    }
  }

  @Test
  void projects_areIsolated_andForeignIdsFailLikeMissingOnes() {
    String a = newProject("iso-a");
    String b = newProject("iso-b");
    JsonNode claimA = server.createClaim(a, "k");
    String claimIdA = claimA.path("claim_id").asString();
    server.addEvidence(a, claimA, "k", "supports", "agent_reported");
    String assumptionA = server.trackAssumption(a, "assumed in a").path("assumption_id").asString();
    server.updateAssumption(a, assumptionA, "supported", "seen");
    server.reviewClaim(a, claimIdA);
    JsonNode claimB = server.createClaim(b, "k");

    JsonNode contextB = server.context(b);
    assertThat(values(contextB.path("claims"), "claim_id"))
        .containsExactly(claimB.path("claim_id").asString());
    for (String collection : List.of("evidence", "assumptions", "assumption_events", "reviews")) {
      assertThat(contextB.path(collection).isEmpty()).as(collection).isTrue();
    }

    String foreign = referenceError(b, claimIdA, assumptionA);
    String missing = referenceError(b, "no-such-claim", "no-such-assumption");
    assertThat(foreign.replace(claimIdA, "ID").replace(assumptionA, "ID"))
        .isEqualTo(missing.replace("no-such-claim", "ID").replace("no-such-assumption", "ID"));
    assertThat(foreign).contains("No claim '" + claimIdA + "' in project '" + b + "'.");
    assertThat(server.context(b)).isEqualTo(contextB);
  }

  /** The INVALID_REFERENCE messages of every tool that takes a claim or assumption ID. */
  private String referenceError(String project, String claimId, String assumptionId) {
    List<Map<String, Object>> calls =
        List.of(
            args(
                "project_id", project,
                "claim_id", claimId,
                "content_summary", "s",
                "relation", "supports",
                "source_type", "test"),
            args("project_id", project, "target_type", "claim", "target_id", claimId),
            args(
                "project_id",
                project,
                "target_type",
                "decision",
                "decision",
                "d",
                "claim_ids",
                List.of(claimId)),
            args(
                "project_id",
                project,
                "assumption_id",
                assumptionId,
                "status",
                "refuted",
                "reason",
                "r"));
    List<String> tools =
        List.of(
            "cortex_add_evidence", "cortex_review", "cortex_review", "cortex_update_assumption");
    StringBuilder messages = new StringBuilder();
    for (int i = 0; i < calls.size(); i++) {
      Outcome outcome = server.fails(tools.get(i), calls.get(i), "INVALID_REFERENCE");
      messages.append(outcome.errorMessage()).append('\n');
    }
    return messages.toString();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.propertyNames().forEach(names::add);
    return names;
  }
}
