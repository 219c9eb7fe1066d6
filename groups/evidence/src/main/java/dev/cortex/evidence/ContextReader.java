package dev.cortex.evidence;

import dev.cortex.base.Json;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.storage.Sql;
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
    return recent(
        c,
        "evidence_assumptions",
        "assumption_id",
        projectId,
        limit,
        columns(
            "assumption_id",
            "statement",
            "context",
            "confidence",
            "status",
            "created_at",
            "updated_at"));
  }

  private static List<Map<String, Object>> events(Connection c, String projectId, int limit)
      throws SQLException {
    return recent(
        c,
        "evidence_assumption_events",
        "event_id",
        projectId,
        limit,
        columns(
            "assumption_id", "position", "previous_status", "new_status", "reason", "created_at"));
  }

  private static List<Map<String, Object>> reviews(Connection c, String projectId, int limit)
      throws SQLException {
    return recent(
        c,
        "evidence_reviews",
        "review_id",
        projectId,
        limit,
        columns(
            "review_id",
            "target_type",
            "target_id",
            "decision",
            "status",
            "policy_version",
            "created_at"));
  }

  private static List<Map<String, Object>> testRuns(Connection c, String projectId, int limit)
      throws SQLException {
    Sql.Row<Map<String, Object>> row =
        columns(
            "run_id",
            "claim_id",
            "criterion_id",
            "git_revision",
            "runner",
            "runner_version",
            "files",
            "exit_code",
            "started_at",
            "finished_at",
            "created_at");
    return recent(
        c,
        "evidence_test_runs",
        "run_id",
        projectId,
        limit,
        rs -> {
          Map<String, Object> run = row.map(rs);
          run.put("files", Json.mapper().readValue((String) run.get("files"), JsonNode.class));
          return run;
        });
  }

  /** A table's newest rows of a project, ties broken by descending ID. Names are constants. */
  private static <T> List<T> recent(
      Connection c, String table, String idColumn, String projectId, int limit, Sql.Row<T> row)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM "
            + table
            + " WHERE project_id = ? ORDER BY created_at DESC, "
            + idColumn
            + " DESC LIMIT ?",
        row,
        projectId,
        limit);
  }

  /** Maps the named columns of a row, in order, to their SQL values (text, integer, real, null). */
  private static Sql.Row<Map<String, Object>> columns(String... names) {
    return rs -> {
      Map<String, Object> map = new LinkedHashMap<>();
      for (String name : names) {
        map.put(name, rs.getObject(name));
      }
      return map;
    };
  }
}
