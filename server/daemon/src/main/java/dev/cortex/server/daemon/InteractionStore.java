package dev.cortex.server.daemon;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.type.TypeReference;

/**
 * The SQL of interactions ({@code interactions}, {@code interaction_planning}). Every method runs
 * in its caller's transaction.
 */
final class InteractionStore {
  private static final TypeReference<List<Interactions.Question>> QUESTIONS =
      new TypeReference<>() {};

  private InteractionStore() {}

  /** One row, as kept. */
  record Row(
      String id,
      String sessionId,
      String kind,
      boolean blocking,
      String level,
      String payload,
      String state,
      Instant createdAt,
      Instant expiresAt,
      Instant endedAt,
      String answer,
      Instant deliveredAt) {
    boolean open() {
      return state.equals(Interactions.OPEN);
    }

    Interactions.View view() {
      boolean question = kind.equals(Interactions.QUESTION);
      return new Interactions.View(
          id,
          sessionId,
          kind,
          state,
          level,
          blocking,
          question ? WireJson.mapper().readValue(payload, QUESTIONS) : null,
          question ? null : WireJson.mapper().readValue(payload, Interactions.Plan.class),
          createdAt.toString(),
          expiresAt.toString(),
          endedAt == null ? null : endedAt.toString(),
          answer == null ? null : WireJson.mapper().readValue(answer, Interactions.Answered.class));
    }
  }

  static void insert(Connection c, Row r) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO interactions (id, session_id, kind, blocking, level, payload, state,
          created_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        r.id(),
        r.sessionId(),
        r.kind(),
        r.blocking(),
        r.level(),
        r.payload(),
        r.state(),
        r.createdAt(),
        r.expiresAt());
  }

  static Row get(Connection c, String id) throws SQLException {
    return Sql.one(c, "SELECT * FROM interactions WHERE id = ?", InteractionStore::row, id);
  }

  /** The session's interactions (every session's when null), open ones only unless {@code all}. */
  static List<Row> list(Connection c, String sessionId, boolean all, int limit)
      throws SQLException {
    String where =
        (sessionId == null ? "1 = 1" : "session_id = ?") + (all ? "" : " AND state = 'open'");
    String sql = "SELECT * FROM interactions WHERE " + where + " ORDER BY created_at, id LIMIT ?";
    return sessionId == null
        ? Sql.query(c, sql, InteractionStore::row, limit)
        : Sql.query(c, sql, InteractionStore::row, sessionId, limit);
  }

  static int openCount(Connection c, String sessionId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM interactions WHERE session_id = ? AND state = 'open'",
        rs -> rs.getInt(1),
        sessionId);
  }

  /** The kind of the session's oldest open blocking interaction, or null. */
  static String waitingFor(Connection c, String sessionId) throws SQLException {
    return Sql.one(
        c,
        "SELECT kind FROM interactions WHERE session_id = ? AND state = 'open' AND blocking = 1"
            + " ORDER BY created_at LIMIT 1",
        rs -> rs.getString(1),
        sessionId);
  }

  /** Ends an open interaction; false when it was no longer open. */
  static boolean end(
      Connection c, String id, String state, Instant at, String by, String via, String answer)
      throws SQLException {
    return Sql.update(
            c,
            "UPDATE interactions SET state = ?, ended_at = ?, answered_by = ?, answered_via = ?,"
                + " answer = ? WHERE id = ? AND state = 'open'",
            state,
            at,
            by,
            via,
            answer,
            id)
        == 1;
  }

  /** Open interactions past their expiry. */
  static List<String> expiredDue(Connection c, Instant now) throws SQLException {
    return Sql.query(
        c,
        "SELECT id FROM interactions WHERE state = 'open' AND expires_at <= ? ORDER BY id",
        rs -> rs.getString(1),
        now);
  }

  /** Answered questions that did not block and whose answer the session does not have yet. */
  static List<Row> undelivered(Connection c) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM interactions WHERE state = 'answered' AND blocking = 0"
            + " AND delivered_at IS NULL ORDER BY ended_at LIMIT 50",
        InteractionStore::row);
  }

  static void delivered(Connection c, String id, Instant at) throws SQLException {
    Sql.update(c, "UPDATE interactions SET delivered_at = ? WHERE id = ?", at, id);
  }

  /** Forgets interactions that ended before {@code before} (delivered, when they must be). */
  static int prune(Connection c, Instant before) throws SQLException {
    return Sql.update(
        c,
        "DELETE FROM interactions WHERE state != 'open' AND ended_at < ?"
            + " AND (blocking = 1 OR state != 'answered' OR delivered_at IS NOT NULL)",
        before);
  }

  static void planning(Connection c, String sessionId, String reasoning, Instant at)
      throws SQLException {
    Sql.update(
        c,
        "INSERT INTO interaction_planning (session_id, reasoning, entered_at) VALUES (?, ?, ?)"
            + " ON CONFLICT (session_id) DO UPDATE SET reasoning = excluded.reasoning,"
            + " entered_at = excluded.entered_at",
        sessionId,
        reasoning,
        at);
  }

  static boolean isPlanning(Connection c, String sessionId) throws SQLException {
    return Sql.one(
            c,
            "SELECT 1 FROM interaction_planning WHERE session_id = ?",
            rs -> rs.getInt(1),
            sessionId)
        != null;
  }

  static void donePlanning(Connection c, String sessionId) throws SQLException {
    Sql.update(c, "DELETE FROM interaction_planning WHERE session_id = ?", sessionId);
  }

  /** Forgets planning marks older than {@code before}. */
  static int prunePlanning(Connection c, Instant before) throws SQLException {
    return Sql.update(c, "DELETE FROM interaction_planning WHERE entered_at < ?", before);
  }

  private static Row row(ResultSet rs) throws SQLException {
    return new Row(
        rs.getString("id"),
        rs.getString("session_id"),
        rs.getString("kind"),
        rs.getInt("blocking") == 1,
        rs.getString("level"),
        rs.getString("payload"),
        rs.getString("state"),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("expires_at")),
        Sql.instant(rs.getString("ended_at")),
        rs.getString("answer"),
        Sql.instant(rs.getString("delivered_at")));
  }
}
