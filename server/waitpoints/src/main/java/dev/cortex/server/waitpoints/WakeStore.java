package dev.cortex.server.waitpoints;

import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The SQL of the wakes waitpoints owe their sessions ({@code wait_wakes}): recorded by a fire or an
 * expiry, held back by the hourly cap, claimed for delivery and marked delivered. Every method runs
 * in its caller's transaction.
 */
final class WakeStore {
  private WakeStore() {}

  static long insert(
      Connection c,
      Waitpoint w,
      String kind,
      Integer round,
      String status,
      String warning,
      Instant waitedFrom,
      Instant at,
      Instant due)
      throws SQLException {
    Sql.update(
        c,
        "INSERT INTO wait_wakes (waitpoint_id, session_id, kind, first_round, last_round, status,"
            + " warning, waited_from, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        w.id(),
        w.sessionId(),
        kind,
        round,
        round,
        status,
        warning,
        waitedFrom,
        at,
        due);
    return Sql.one(c, "SELECT last_insert_rowid()", rs -> rs.getLong(1));
  }

  /** A fire wake of the waitpoint held back by the rate cap and not yet taken, or null. */
  static Long heldBack(Connection c, String waitpointId, Instant now) throws SQLException {
    return Sql.one(
        c,
        "SELECT id FROM wait_wakes WHERE waitpoint_id = ? AND kind = 'fire' AND due_at > ?"
            + " AND claimed_at IS NULL ORDER BY id LIMIT 1",
        rs -> rs.getLong(1),
        waitpointId,
        now);
  }

  /** Adds a round to a wake held back. */
  static void extend(Connection c, long wakeId, int round, String status) throws SQLException {
    Sql.update(
        c,
        "UPDATE wait_wakes SET last_round = ?,"
            + " status = CASE WHEN status = 'fail' THEN 'fail' ELSE ? END WHERE id = ?",
        round,
        status,
        wakeId);
  }

  /** When the fire wakes of a waitpoint since {@code since} are (or were) due, oldest first. */
  static List<Instant> fireDues(Connection c, String waitpointId, Instant since)
      throws SQLException {
    return Sql.query(
        c,
        "SELECT due_at FROM wait_wakes WHERE waitpoint_id = ? AND kind = 'fire' AND due_at > ?"
            + " ORDER BY due_at",
        rs -> Sql.instant(rs.getString(1)),
        waitpointId,
        since);
  }

  static Wake get(Connection c, long id) throws SQLException {
    return Sql.one(c, "SELECT * FROM wait_wakes WHERE id = ?", WakeStore::wake, id);
  }

  /** Wakes due and not yet taken, oldest first. */
  static List<Wake> due(Connection c, Instant now, int limit) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM wait_wakes WHERE delivered_at IS NULL AND claimed_at IS NULL"
            + " AND due_at <= ? ORDER BY id LIMIT ?",
        WakeStore::wake,
        now,
        limit);
  }

  /** Takes a wake for delivery; false when another thread has it. */
  static boolean claim(Connection c, long id, Instant now) throws SQLException {
    return Sql.update(
            c,
            "UPDATE wait_wakes SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL"
                + " AND delivered_at IS NULL",
            now,
            id)
        == 1;
  }

  static void unclaim(Connection c, long id) throws SQLException {
    Sql.update(c, "UPDATE wait_wakes SET claimed_at = NULL WHERE id = ?", id);
  }

  /** After a restart: wakes taken but not marked delivered are taken again. */
  static int releaseClaims(Connection c) throws SQLException {
    return Sql.update(
        c,
        "UPDATE wait_wakes SET claimed_at = NULL"
            + " WHERE claimed_at IS NOT NULL AND delivered_at IS NULL");
  }

  static void delivered(Connection c, long id, Instant at, String error) throws SQLException {
    Sql.update(c, "UPDATE wait_wakes SET delivered_at = ?, error = ? WHERE id = ?", at, error, id);
  }

  private static Wake wake(ResultSet rs) throws SQLException {
    return new Wake(
        rs.getLong("id"),
        rs.getString("waitpoint_id"),
        rs.getString("session_id"),
        rs.getString("kind"),
        integer(rs, "first_round"),
        integer(rs, "last_round"),
        rs.getString("status"),
        rs.getString("warning"),
        Sql.instant(rs.getString("waited_from")),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("due_at")));
  }

  private static Integer integer(ResultSet rs, String column) throws SQLException {
    Object value = rs.getObject(column);
    return value == null ? null : ((Number) value).intValue();
  }
}
