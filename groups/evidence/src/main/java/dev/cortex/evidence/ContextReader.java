package dev.cortex.evidence;

import dev.cortex.evidence.Records.Evidence;
import dev.cortex.mcp.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Recovers a project's records after a reconnect: only the requested collections, newest first with
 * descending record IDs breaking ties, at most {@code limit} each.
 */
final class ContextReader {
  private ContextReader() {}

  static final List<String> COLLECTIONS =
      List.of("claims", "assumptions", "assumption_events", "evidence", "reviews", "test_runs");

  static Map<String, Object> read(Connection c, String projectId, List<String> include, int limit)
      throws SQLException {
    Map<String, Object> context = new LinkedHashMap<>();
    context.put("project_id", projectId);
    for (String collection : include) {
      context.put(collection, collection(c, collection, projectId, limit));
    }
    return context;
  }

  private static List<?> collection(Connection c, String name, String projectId, int limit)
      throws SQLException {
    return switch (name) {
      case "claims" -> claims(c, projectId, limit);
      case "assumptions" -> assumptions(c, projectId, limit);
      case "assumption_events" -> events(c, projectId, limit);
      case "evidence" -> evidence(c, projectId, limit);
      case "reviews" -> reviews(c, projectId, limit);
      case "test_runs" -> testRuns(c, projectId, limit);
      default -> throw new IllegalArgumentException("unknown collection " + name);
    };
  }

  private static List<Map<String, Object>> claims(Connection c, String projectId, int limit)
      throws SQLException {
    List<String> ids =
        Sql.query(
            c,
            "SELECT claim_id FROM evidence_claims WHERE project_id = ? ORDER BY created_at DESC, claim_id DESC LIMIT ?",
            rs -> rs.getString(1),
            projectId,
            limit);
    List<Map<String, Object>> claims = new ArrayList<>();
    for (String id : ids) {
      Records.Claim claim = Ledger.claim(c, projectId, id);
      List<Map<String, Object>> criteria = new ArrayList<>();
      for (Records.Criterion k : claim.criteria()) {
        Map<String, Object> criterion = new LinkedHashMap<>();
        criterion.put("criterion_id", k.id());
        criterion.put("key", k.key());
        criterion.put("description", k.description());
        criterion.put("required", k.required());
        criteria.add(criterion);
      }
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("claim_id", claim.id());
      entry.put("statement", claim.statement());
      entry.put("criteria", criteria);
      entry.put("created_at", Sql.stamp(claim.createdAt()));
      claims.add(entry);
    }
    return claims;
  }

  private static List<Results.AddedEvidence> evidence(Connection c, String projectId, int limit)
      throws SQLException {
    List<Evidence> rows =
        Sql.query(
            c,
            "SELECT * FROM evidence_records WHERE project_id = ? ORDER BY created_at DESC, evidence_id DESC LIMIT ?",
            Ledger::evidence,
            projectId,
            limit);
    List<Results.AddedEvidence> out = new ArrayList<>();
    for (Evidence e : rows) {
      out.add(Ledger.added(e.id(), e));
    }
    return out;
  }

  private static List<Map<String, Object>> assumptions(Connection c, String projectId, int limit)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM evidence_assumptions WHERE project_id = ? ORDER BY created_at DESC, assumption_id DESC LIMIT ?",
        rs -> {
          Map<String, Object> a = new LinkedHashMap<>();
          a.put("assumption_id", rs.getString("assumption_id"));
          a.put("statement", rs.getString("statement"));
          a.put("context", rs.getString("context"));
          a.put("confidence", Sql.nullableDouble(rs, "confidence"));
          a.put("status", rs.getString("status"));
          a.put("created_at", rs.getString("created_at"));
          a.put("updated_at", rs.getString("updated_at"));
          return a;
        },
        projectId,
        limit);
  }

  private static List<Map<String, Object>> events(Connection c, String projectId, int limit)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM evidence_assumption_events WHERE project_id = ? ORDER BY created_at DESC, event_id DESC LIMIT ?",
        rs -> {
          Map<String, Object> e = new LinkedHashMap<>();
          e.put("assumption_id", rs.getString("assumption_id"));
          e.put("position", rs.getInt("position"));
          e.put("previous_status", rs.getString("previous_status"));
          e.put("new_status", rs.getString("new_status"));
          e.put("reason", rs.getString("reason"));
          e.put("created_at", rs.getString("created_at"));
          return e;
        },
        projectId,
        limit);
  }

  private static List<Map<String, Object>> reviews(Connection c, String projectId, int limit)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM evidence_reviews WHERE project_id = ? ORDER BY created_at DESC, review_id DESC LIMIT ?",
        rs -> {
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("review_id", rs.getString("review_id"));
          r.put("target_type", rs.getString("target_type"));
          r.put("target_id", rs.getString("target_id"));
          r.put("decision", rs.getString("decision"));
          r.put("status", rs.getString("status"));
          r.put("policy_version", rs.getString("policy_version"));
          r.put("created_at", rs.getString("created_at"));
          return r;
        },
        projectId,
        limit);
  }

  private static List<Map<String, Object>> testRuns(Connection c, String projectId, int limit)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM evidence_test_runs WHERE project_id = ? ORDER BY created_at DESC, run_id DESC LIMIT ?",
        rs -> {
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("run_id", rs.getString("run_id"));
          r.put("claim_id", rs.getString("claim_id"));
          r.put("criterion_id", rs.getString("criterion_id"));
          r.put("git_revision", rs.getString("git_revision"));
          r.put("runner", rs.getString("runner"));
          r.put("runner_version", rs.getString("runner_version"));
          r.put("files", Json.mapper().readValue(rs.getString("files"), JsonNode.class));
          r.put("exit_code", rs.getInt("exit_code"));
          r.put("started_at", rs.getString("started_at"));
          r.put("finished_at", rs.getString("finished_at"));
          r.put("created_at", rs.getString("created_at"));
          return r;
        },
        projectId,
        limit);
  }
}
