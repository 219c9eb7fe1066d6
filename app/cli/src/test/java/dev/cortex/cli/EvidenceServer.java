package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.ToolContract.Outcome;
import dev.cortex.testing.CortexProcess;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex mcp --bundles evidence} on stdio, driven by the Java SDK client, with the calls the
 * evidence protocol tests make over and over.
 */
final class EvidenceServer implements AutoCloseable {
  static final List<String> COLLECTIONS =
      List.of("claims", "assumptions", "assumption_events", "evidence", "reviews", "test_runs");
  private static final AtomicInteger projects = new AtomicInteger();

  final Path home;
  private final McpSyncClient client;

  private EvidenceServer(Path home, McpSyncClient client) {
    this.home = home;
    this.client = client;
  }

  static EvidenceServer start(Path home) {
    List<String> command = CortexProcess.command("mcp", "--bundles", "evidence");
    ServerParameters server =
        ServerParameters.builder(command.get(0))
            .args(command.subList(1, command.size()))
            .env(CortexProcess.env(home))
            .build();
    return new EvidenceServer(
        home, McpClients.connect(new StdioClientTransport(server, McpClients.MAPPER)));
  }

  /** A project ID no other test uses. */
  static String newProject(String label) {
    return label + "-" + projects.incrementAndGet();
  }

  /** A map of alternating keys and values, in order; values may be null. */
  static Map<String, Object> args(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  static Map<String, Object> criterion(String key, boolean required) {
    return args("key", key, "description", "what satisfies " + key, "required", required);
  }

  Outcome call(String tool, Map<String, Object> arguments) {
    return McpClients.call(client, tool, arguments);
  }

  /** Calls a tool that must succeed and returns its structured result. */
  JsonNode ok(String tool, Map<String, Object> arguments) {
    Outcome outcome = call(tool, arguments);
    assertThat(outcome.isError()).as("%s %s failed: %s", tool, arguments, outcome.text()).isFalse();
    return outcome.structured();
  }

  /** Calls a tool that must fail with {@code code} and returns the outcome. */
  Outcome fails(String tool, Map<String, Object> arguments, String code) {
    Outcome outcome = call(tool, arguments);
    assertThat(outcome.isError()).as("%s %s should fail", tool, arguments).isTrue();
    assertThat(outcome.errorCode()).as(outcome.errorMessage()).isEqualTo(code);
    return outcome;
  }

  JsonNode createClaim(String project, List<Map<String, Object>> criteria) {
    return ok(
        "cortex_create_claim",
        args("project_id", project, "statement", "claim in " + project, "criteria", criteria));
  }

  /** A claim whose criteria are all required, with these keys. */
  JsonNode createClaim(String project, String... requiredKeys) {
    List<Map<String, Object>> criteria = new ArrayList<>();
    for (String key : requiredKeys) {
      criteria.add(criterion(key, true));
    }
    return createClaim(project, criteria);
  }

  static String criterionId(JsonNode claim, String key) {
    for (JsonNode criterion : claim.path("criteria")) {
      if (criterion.path("key").asString().equals(key)) {
        return criterion.path("criterion_id").asString();
      }
    }
    throw new AssertionError("claim has no criterion " + key + ": " + claim);
  }

  /** Evidence on one criterion of {@code claim} with the given relation and origin. */
  JsonNode addEvidence(String project, JsonNode claim, String key, String relation, String origin) {
    return ok(
        "cortex_add_evidence",
        args(
            "project_id",
            project,
            "claim_id",
            claim.path("claim_id").asString(),
            "criterion_id",
            criterionId(claim, key),
            "content_summary",
            relation + " " + key,
            "relation",
            relation,
            "origin",
            origin,
            "source_type",
            "test"));
  }

  JsonNode trackAssumption(String project, String statement) {
    return ok("cortex_track_assumption", args("project_id", project, "statement", statement));
  }

  JsonNode updateAssumption(String project, String assumptionId, String status, String reason) {
    return ok(
        "cortex_update_assumption",
        args(
            "project_id",
            project,
            "assumption_id",
            assumptionId,
            "status",
            status,
            "reason",
            reason));
  }

  JsonNode reviewClaim(String project, String claimId) {
    return ok(
        "cortex_review", args("project_id", project, "target_type", "claim", "target_id", claimId));
  }

  JsonNode reviewDecision(String project, List<String> claimIds, List<String> assumptionIds) {
    Map<String, Object> arguments =
        args("project_id", project, "target_type", "decision", "decision", "ship it");
    if (!claimIds.isEmpty()) {
      arguments.put("claim_ids", claimIds);
    }
    if (!assumptionIds.isEmpty()) {
      arguments.put("assumption_ids", assumptionIds);
    }
    return ok("cortex_review", arguments);
  }

  /** Every collection of the project, default limit. */
  JsonNode context(String project) {
    return ok("cortex_get_context", args("project_id", project, "include", COLLECTIONS));
  }

  /** Sets a project's policy with {@code cortex evidence set-policy}, a separate process. */
  void setPolicy(String project, String policy) throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(CortexProcess.env(home), "evidence", "set-policy", project, policy);
    assertThat(run.exitCode()).as("set-policy stderr: %s", run.stderr()).isZero();
    assertThat(run.stdout()).contains("policy " + policy);
  }

  /** The values of {@code field} in the entries of {@code array}, in order. */
  static List<String> values(JsonNode array, String field) {
    List<String> values = new ArrayList<>();
    for (JsonNode entry : array) {
      JsonNode value = entry.path(field);
      values.add(value.isNull() ? null : value.asString());
    }
    return values;
  }

  /** Findings as {@code severity RULE_ID}, in order. */
  static List<String> findings(JsonNode review) {
    List<String> findings = new ArrayList<>();
    for (JsonNode f : review.path("findings")) {
      findings.add(f.path("severity").asString() + " " + f.path("rule_id").asString());
    }
    return findings;
  }

  @Override
  public void close() {
    client.closeGracefully();
  }
}
