package dev.cortex.server.daemon;

import dev.cortex.protocol.webhook.Subagents;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** The rows of the {@code subagents} area; SQL beside the method that runs it. */
final class SubagentStore {
  static final String RUNNING = "running";
  static final String COMPLETED = "completed";
  static final String FAILED = "failed";
  static final String STOPPED = "stopped";
  static final String INTERRUPTED = "interrupted";
  static final String SKIPPED = "skipped";

  private SubagentStore() {}

  /** One subagent, as kept. */
  record Row(
      String id,
      String callId,
      int position,
      String mode,
      String parentSessionId,
      String parentExecutionId,
      String childSessionId,
      String description,
      String subagentType,
      String backend,
      String model,
      String status,
      boolean background,
      String output,
      String error,
      double costUsd,
      Instant createdAt,
      Instant endedAt,
      Instant deliveredAt) {
    boolean running() {
      return status.equals(RUNNING);
    }

    Subagents.View view() {
      return new Subagents.View(
          id,
          callId,
          mode,
          position,
          parentSessionId,
          parentExecutionId,
          childSessionId,
          description,
          subagentType,
          backend,
          model,
          status,
          background,
          output,
          error,
          costUsd,
          createdAt.toString(),
          endedAt == null ? null : endedAt.toString(),
          deliveredAt == null ? null : deliveredAt.toString());
    }

    Subagents.Outcome outcome() {
      return new Subagents.Outcome(
          id,
          description,
          subagentType,
          backend,
          model,
          childSessionId,
          status,
          output,
          error,
          costUsd);
    }
  }

  static void insert(Connection c, Row r) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO subagents (id, call_id, position, mode, parent_session_id,
          parent_execution_id, child_session_id, description, subagent_type, backend, model,
          status, background, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        r.id(),
        r.callId(),
        r.position(),
        r.mode(),
        r.parentSessionId(),
        r.parentExecutionId(),
        r.childSessionId(),
        r.description(),
        r.subagentType(),
        r.backend(),
        r.model(),
        r.status(),
        r.background(),
        r.createdAt());
  }

  static Row get(Connection c, String id) throws SQLException {
    return Sql.one(c, "SELECT * FROM subagents WHERE id = ?", SubagentStore::row, id);
  }

  /** The subagents of a parent session, oldest first (every parent's when null). */
  static List<Row> list(Connection c, String parentSessionId, int limit) throws SQLException {
    return parentSessionId == null
        ? Sql.query(
            c,
            "SELECT * FROM subagents ORDER BY created_at DESC, call_id, position LIMIT ?",
            SubagentStore::row,
            limit)
        : Sql.query(
            c,
            "SELECT * FROM subagents WHERE parent_session_id = ?"
                + " ORDER BY created_at, call_id, position LIMIT ?",
            SubagentStore::row,
            parentSessionId,
            limit);
  }

  /** The subagents of one call, in item order. */
  static List<Row> ofCall(Connection c, String callId) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM subagents WHERE call_id = ? ORDER BY position",
        SubagentStore::row,
        callId);
  }

  static List<Row> running(Connection c) throws SQLException {
    return Sql.query(
        c, "SELECT * FROM subagents WHERE status = 'running' ORDER BY id", SubagentStore::row);
  }

  /** Ends a running subagent; false when it had ended already (its first end stands). */
  static boolean finish(
      Connection c, String id, String status, String output, String error, double usd, Instant at)
      throws SQLException {
    return Sql.update(
            c,
            "UPDATE subagents SET status = ?, output = ?, error = ?, cost_usd = ?, ended_at = ?"
                + " WHERE id = ? AND status = 'running'",
            status,
            output,
            error,
            usd,
            at,
            id)
        == 1;
  }

  /** Marks the subagents of a call as running in the background (their results come later). */
  static void background(Connection c, String callId) throws SQLException {
    Sql.update(c, "UPDATE subagents SET background = 1 WHERE call_id = ?", callId);
  }

  /** Background calls whose subagents have all ended and whose results the parent lacks. */
  static List<String> undeliveredCalls(Connection c) throws SQLException {
    return Sql.query(
        c,
        "SELECT call_id FROM subagents GROUP BY call_id"
            + " HAVING MAX(background) = 1 AND SUM(status = 'running') = 0"
            + " AND SUM(delivered_at IS NULL) > 0 ORDER BY MIN(created_at) LIMIT 50",
        rs -> rs.getString(1));
  }

  /**
   * Removes the records of subagents that ended before {@code before}, of calls whose results were
   * delivered or that had a caller waiting for them (nothing is owed).
   */
  static int prune(Connection c, Instant before) throws SQLException {
    return Sql.update(
        c,
        "DELETE FROM subagents WHERE status != ? AND ended_at < ?"
            + " AND (delivered_at IS NOT NULL OR background = 0)",
        RUNNING,
        before);
  }

  static void delivered(Connection c, String callId, Instant at) throws SQLException {
    Sql.update(
        c,
        "UPDATE subagents SET delivered_at = ? WHERE call_id = ? AND delivered_at IS NULL",
        at,
        callId);
  }

  private static Row row(ResultSet rs) throws SQLException {
    return new Row(
        rs.getString("id"),
        rs.getString("call_id"),
        rs.getInt("position"),
        rs.getString("mode"),
        rs.getString("parent_session_id"),
        rs.getString("parent_execution_id"),
        rs.getString("child_session_id"),
        rs.getString("description"),
        rs.getString("subagent_type"),
        rs.getString("backend"),
        rs.getString("model"),
        rs.getString("status"),
        rs.getInt("background") == 1,
        rs.getString("output"),
        rs.getString("error"),
        rs.getDouble("cost_usd"),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("ended_at")),
        Sql.instant(rs.getString("delivered_at")));
  }
}
