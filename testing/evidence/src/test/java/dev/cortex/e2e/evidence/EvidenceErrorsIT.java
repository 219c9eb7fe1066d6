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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * Every way an evidence tool call can be refused, over MCP on stdio: the stable code, a message
 * that names the field, nothing written, and a server that keeps serving.
 */
class EvidenceErrorsIT {
  static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
  static final String INVALID_REFERENCE = "INVALID_REFERENCE";
  static final String GHOST = "ghost-project";

  @TempDir static Path home;
  static EvidenceServer server;
  static String project;
  static String claimId;
  static String criterionId;
  static String otherCriterionId;
  static String assumptionId;

  @BeforeAll
  static void start() {
    server = EvidenceServer.start(home);
    project = newProject("errors");
    JsonNode claim = server.createClaim(project, "k", "j");
    claimId = claim.path("claim_id").asString();
    criterionId = criterionId(claim, "k");
    otherCriterionId = criterionId(server.createClaim(project, "k"), "k");
    assumptionId = server.trackAssumption(project, "assumed").path("assumption_id").asString();
    server.reviewClaim(project, claimId);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** A refused call: valid arguments for {@code tool}, then {@code change}. */
  record Case(
      String name,
      String tool,
      Consumer<Map<String, Object>> change,
      String code,
      List<String> named) {
    @Override
    public String toString() {
      return tool + ": " + name;
    }
  }

  static Case invalid(
      String tool, String name, Consumer<Map<String, Object>> change, String... named) {
    return new Case(name, tool, change, INVALID_ARGUMENT, List.of(named));
  }

  static Case reference(
      String tool, String name, Consumer<Map<String, Object>> change, String... named) {
    return new Case(name, tool, change, INVALID_REFERENCE, List.of(named));
  }

  static Consumer<Map<String, Object>> set(String field, Object value) {
    return args -> args.put(field, value);
  }

  static Consumer<Map<String, Object>> remove(String field) {
    return args -> args.remove(field);
  }

  static Consumer<Map<String, Object>> decision() {
    return args -> {
      args.remove("target_id");
      args.put("target_type", "decision");
      args.put("decision", "ship it");
    };
  }

  static List<Map<String, Object>> criteria(int count) {
    return IntStream.range(0, count).mapToObj(i -> criterion("c" + i, true)).toList();
  }

  static List<String> ids(int count) {
    return IntStream.range(0, count).mapToObj(i -> "id-" + i).toList();
  }

  static Map<String, Object> valid(String tool) {
    return switch (tool) {
      case "cortex_create_claim" ->
          args(
              "project_id",
              project,
              "statement",
              "s",
              "criteria",
              new ArrayList<>(List.of(criterion("a", true))));
      case "cortex_add_evidence" ->
          args(
              "project_id",
              project,
              "claim_id",
              claimId,
              "criterion_id",
              criterionId,
              "content_summary",
              "observed",
              "relation",
              "supports",
              "source_type",
              "test");
      case "cortex_track_assumption" -> args("project_id", project, "statement", "assumed");
      case "cortex_update_assumption" ->
          args(
              "project_id",
              project,
              "assumption_id",
              assumptionId,
              "status",
              "supported",
              "reason",
              "seen");
      case "cortex_review" ->
          args("project_id", project, "target_type", "claim", "target_id", claimId);
      case "cortex_get_context" -> args("project_id", project, "include", List.of("claims"));
      default -> throw new IllegalArgumentException(tool);
    };
  }

  static Stream<Case> cases() {
    String create = "cortex_create_claim";
    String evidence = "cortex_add_evidence";
    String track = "cortex_track_assumption";
    String update = "cortex_update_assumption";
    String review = "cortex_review";
    String context = "cortex_get_context";
    Map<String, Object> unknownKey = args("key", "a", "description", "d", "weight", 2);
    return Stream.of(
        invalid(create, "no criteria", set("criteria", List.of()), "criteria"),
        invalid(create, "33 criteria", set("criteria", criteria(33)), "criteria"),
        invalid(
            create,
            "duplicate keys",
            set("criteria", List.of(criterion("a", true), criterion("a", false))),
            "key",
            "'a'"),
        invalid(
            create,
            "no required criterion",
            set("criteria", List.of(criterion("a", false), criterion("b", false))),
            "required"),
        invalid(create, "unknown field", set("priority", 1), "priority"),
        invalid(create, "unknown criterion field", set("criteria", List.of(unknownKey)), "weight"),
        invalid(
            create,
            "string for boolean",
            set("criteria", List.of(args("key", "a", "description", "d", "required", "true"))),
            "criteria.0.required",
            "boolean"),
        invalid(create, "number for string", set("statement", 5), "statement", "string"),
        invalid(create, "missing statement", remove("statement"), "statement"),
        invalid(
            create,
            "key outside the pattern",
            set("criteria", List.of(criterion("has space", true))),
            "key"),
        invalid(
            create, "project outside the pattern", set("project_id", "has space"), "project_id"),
        invalid(evidence, "relation outside the enum", set("relation", "proves"), "relation"),
        invalid(evidence, "origin outside the enum", set("origin", "hearsay"), "origin"),
        invalid(
            evidence, "source_type outside the enum", set("source_type", "rumour"), "source_type"),
        invalid(
            evidence, "digest of 63", set("artifact_digest", "a".repeat(63)), "artifact_digest"),
        invalid(
            evidence, "non-hex digest", set("artifact_digest", "g".repeat(64)), "artifact_digest"),
        invalid(evidence, "observed_at not ISO", set("observed_at", "yesterday"), "observed_at"),
        invalid(
            evidence,
            "observed_at past year 9999",
            set("observed_at", "+10000-01-01T00:00:00Z"),
            "observed_at"),
        invalid(
            evidence,
            "observed_at at the edge of time",
            set("observed_at", "+999999999-12-31T23:59:59-18:00"),
            "observed_at"),
        invalid(
            evidence,
            "observed_at without offset",
            set("observed_at", "2026-11-05T00:00:00"),
            "observed_at"),
        invalid(evidence, "number for summary", set("content_summary", 7), "content_summary"),
        invalid(evidence, "missing claim_id", remove("claim_id"), "claim_id"),
        reference(evidence, "missing claim", set("claim_id", "no-such-claim"), "'no-such-claim'"),
        reference(
            evidence,
            "criterion of another claim",
            args -> args.put("criterion_id", otherCriterionId),
            "criterion"),
        reference(evidence, "missing criterion", set("criterion_id", "no-such"), "'no-such'"),
        invalid(track, "confidence 1.5", set("confidence", 1.5), "confidence"),
        invalid(track, "confidence -0.1", set("confidence", -0.1), "confidence"),
        invalid(track, "string for number", set("confidence", "0.5"), "confidence", "number"),
        invalid(track, "unknown field", set("owner", "me"), "owner"),
        invalid(update, "status outside the enum", set("status", "maybe"), "status"),
        invalid(update, "missing reason", remove("reason"), "reason"),
        reference(update, "missing assumption", set("assumption_id", "no-such-a"), "'no-such-a'"),
        invalid(
            review, "target_type outside the enum", set("target_type", "project"), "target_type"),
        invalid(review, "claim review without target_id", remove("target_id"), "target_id"),
        invalid(review, "claim review with claim_ids", set("claim_ids", List.of("x")), "claim_ids"),
        invalid(review, "decision review without IDs", decision(), "claim_ids", "assumption_ids"),
        invalid(
            review,
            "decision review without decision",
            decision().andThen(remove("decision")).andThen(set("assumption_ids", List.of("x"))),
            "decision"),
        invalid(
            review,
            "decision review with target_id",
            decision().andThen(set("target_id", "x")).andThen(set("claim_ids", List.of("x"))),
            "target_id"),
        invalid(review, "17 claim_ids", decision().andThen(set("claim_ids", ids(17))), "claim_ids"),
        invalid(
            review,
            "duplicate claim_ids",
            decision().andThen(set("claim_ids", List.of("x", "x"))),
            "claim_ids"),
        invalid(
            review,
            "string for array",
            decision().andThen(set("assumption_ids", "x")),
            "assumption_ids"),
        reference(review, "missing claim", set("target_id", "no-such-claim"), "'no-such-claim'"),
        reference(
            review, "project that does not exist", set("project_id", GHOST), "'" + GHOST + "'"),
        reference(
            review,
            "missing assumption",
            decision().andThen(set("assumption_ids", List.of("no-such-a"))),
            "'no-such-a'"),
        invalid(context, "limit 0", set("limit", 0), "limit"),
        invalid(context, "limit 21", set("limit", 21), "limit"),
        invalid(context, "string for integer", set("limit", "5"), "limit"),
        invalid(context, "include empty", set("include", List.of()), "include"),
        invalid(context, "unknown collection", set("include", List.of("secrets")), "include"),
        invalid(
            context,
            "duplicate collection",
            set("include", List.of("claims", "claims")),
            "include"),
        invalid(context, "missing include", remove("include"), "include"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void call_refused_returnsCodeNamingFieldAndWritesNothing(Case c) {
    JsonNode before = server.context(project);
    Map<String, Object> arguments = valid(c.tool());
    c.change().accept(arguments);

    Outcome outcome = server.fails(c.tool(), arguments, c.code());

    for (String name : c.named()) {
      assertThat(outcome.errorMessage()).contains(name);
    }
    assertThat(outcome.errorMessage())
        .doesNotContain("Exception", "SQL", "sqlite", home.toString());
    assertThat(server.context(project)).as("records after the refused call").isEqualTo(before);
    assertThat(server.context(GHOST).path("reviews").isEmpty()).isTrue();
  }

  @Test
  void createClaim_refused_leavesClaimsUnchangedAndTheNextCallSucceeds() {
    String fresh = newProject("after-errors");
    String first = server.createClaim(fresh, "k").path("claim_id").asString();
    for (Case c : cases().filter(c -> c.tool().equals("cortex_create_claim")).toList()) {
      Map<String, Object> arguments = valid(c.tool());
      arguments.put("project_id", fresh);
      c.change().accept(arguments);
      server.fails(c.tool(), arguments, c.code());
    }
    assertThat(values(server.context(fresh).path("claims"), "claim_id")).containsExactly(first);

    String second = server.createClaim(fresh, "k").path("claim_id").asString();

    assertThat(values(server.context(fresh).path("claims"), "claim_id"))
        .containsExactlyInAnyOrder(first, second);
  }
}
