package dev.cortex.server.daemon;

import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/** The rows of the {@code team} area; SQL beside the method that runs it. */
final class TeamStore {
  private TeamStore() {}

  /** One worker, as kept. */
  record Row(
      String id,
      String mainSessionId,
      String name,
      String sessionId,
      String backend,
      String model,
      String routineExecution,
      String reportedExecution,
      String lastStatus,
      String lastReport,
      Instant lastReportAt,
      int unread,
      Instant createdAt) {}

  static void insert(Connection c, Row r) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO workers (id, main_session_id, name, session_id, backend, model, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        r.id(),
        r.mainSessionId(),
        r.name(),
        r.sessionId(),
        r.backend(),
        r.model(),
        r.createdAt());
  }

  static Row get(Connection c, String id) throws SQLException {
    return Sql.one(c, "SELECT * FROM workers WHERE id = ?", TeamStore::row, id);
  }

  static Row ofSession(Connection c, String sessionId) throws SQLException {
    return Sql.one(c, "SELECT * FROM workers WHERE session_id = ?", TeamStore::row, sessionId);
  }

  static Row named(Connection c, String mainSessionId, String name) throws SQLException {
    return Sql.one(
        c,
        "SELECT * FROM workers WHERE main_session_id = ? AND name = ?",
        TeamStore::row,
        mainSessionId,
        name);
  }

  /** The workers of a main session, oldest first (every team's when null). */
  static List<Row> of(Connection c, String mainSessionId) throws SQLException {
    return mainSessionId == null
        ? Sql.query(c, "SELECT * FROM workers ORDER BY created_at, id", TeamStore::row)
        : Sql.query(
            c,
            "SELECT * FROM workers WHERE main_session_id = ? ORDER BY created_at, id",
            TeamStore::row,
            mainSessionId);
  }

  static int count(Connection c, String mainSessionId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM workers WHERE main_session_id = ?",
        rs -> rs.getInt(1),
        mainSessionId);
  }

  /** Marks the turn {@code executionId} of a worker routine. */
  static void routine(Connection c, String id, String executionId) throws SQLException {
    Sql.update(c, "UPDATE workers SET routine_execution = ? WHERE id = ?", executionId, id);
  }

  /**
   * Records the end of the worker's turn {@code executionId}; false when it was recorded already.
   *
   * @param unread whether it is a routine update the main session has not read
   */
  static boolean reported(
      Connection c,
      String id,
      String executionId,
      String status,
      String report,
      boolean unread,
      Instant at)
      throws SQLException {
    return Sql.update(
            c,
            "UPDATE workers SET reported_execution = ?, last_status = ?, last_report = ?,"
                + " last_report_at = ?, unread = unread + ?"
                + " WHERE id = ? AND (reported_execution IS NULL OR reported_execution != ?)",
            executionId,
            status,
            report,
            at,
            unread ? 1 : 0,
            id,
            executionId)
        == 1;
  }

  /** The main session read a worker's updates. */
  static void read(Connection c, String id) throws SQLException {
    Sql.update(c, "UPDATE workers SET unread = 0 WHERE id = ?", id);
  }

  private static Row row(ResultSet rs) throws SQLException {
    return new Row(
        rs.getString("id"),
        rs.getString("main_session_id"),
        rs.getString("name"),
        rs.getString("session_id"),
        rs.getString("backend"),
        rs.getString("model"),
        rs.getString("routine_execution"),
        rs.getString("reported_execution"),
        rs.getString("last_status"),
        rs.getString("last_report"),
        Sql.instant(rs.getString("last_report_at")),
        rs.getInt("unread"),
        Sql.instant(rs.getString("created_at")));
  }
}
