package dev.cortex.server.waitpoints;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * The SQL of waitpoints, their signals and wakes; every method runs in its caller's transaction.
 */
final class WaitStore {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  private WaitStore() {}

  static void insert(Connection c, Waitpoint w) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO waitpoints (id, session_id, label, intent, members, quorum, fail_fast,
          max_signals, device, secret_sha256, state, round, fires, closing_until, last_fire_at,
          created_at, expires_at, ended_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        w.id(),
        w.sessionId(),
        w.label(),
        w.intent(),
        w.members() == null ? null : WireJson.mapper().writeValueAsString(w.members()),
        w.quorum(),
        w.failFast(),
        w.maxSignals(),
        w.device(),
        w.secretSha256(),
        w.state().wire(),
        w.round(),
        w.fires(),
        w.closingUntil(),
        w.lastFireAt(),
        w.createdAt(),
        w.expiresAt(),
        w.endedAt());
  }

  static Waitpoint get(Connection c, String id) throws SQLException {
    return Sql.one(c, "SELECT * FROM waitpoints WHERE id = ?", WaitStore::waitpoint, id);
  }

  static List<Waitpoint> waiting(Connection c, String sessionId) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM waitpoints WHERE session_id = ? AND state IN ('open', 'closing')"
            + " ORDER BY created_at, id",
        WaitStore::waitpoint,
        sessionId);
  }

  static int waitingCount(Connection c, String sessionId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM waitpoints WHERE session_id = ? AND state IN ('open', 'closing')",
        rs -> rs.getInt(1),
        sessionId);
  }

  /** Waitpoints whose coalescing window has passed. */
  static List<String> closingDue(Connection c, Instant now) throws SQLException {
    return Sql.query(
        c,
        "SELECT id FROM waitpoints WHERE state = 'closing' AND closing_until <= ? ORDER BY id",
        rs -> rs.getString(1),
        now);
  }

  /** Waitpoints still waiting past their expiry. */
  static List<String> expiredDue(Connection c, Instant now) throws SQLException {
    return Sql.query(
        c,
        "SELECT id FROM waitpoints WHERE state IN ('open', 'closing') AND expires_at <= ?"
            + " ORDER BY id",
        rs -> rs.getString(1),
        now);
  }

  static void closing(Connection c, String id, Instant until) throws SQLException {
    Sql.update(
        c, "UPDATE waitpoints SET state = 'closing', closing_until = ? WHERE id = ?", until, id);
  }

  /** After a fire: the next round, or the end. */
  static void fired(Connection c, Waitpoint w, Instant at, boolean resolved) throws SQLException {
    Sql.update(
        c,
        "UPDATE waitpoints SET fires = fires + 1, state = ?, round = ?, closing_until = NULL,"
            + " last_fire_at = ?, ended_at = ? WHERE id = ?",
        resolved ? "resolved" : "open",
        resolved ? w.round() : w.round() + 1,
        at,
        resolved ? at : null,
        w.id());
  }

  static void ended(Connection c, String id, Waitpoint.State state, Instant at)
      throws SQLException {
    Sql.update(
        c,
        "UPDATE waitpoints SET state = ?, closing_until = NULL, ended_at = ? WHERE id = ?",
        state.wire(),
        at,
        id);
  }

  static boolean hasSignal(Connection c, String waitpointId, String signalId) throws SQLException {
    return Sql.one(
            c,
            "SELECT 1 FROM wait_signals WHERE waitpoint_id = ? AND signal_id = ?",
            rs -> rs.getInt(1),
            waitpointId,
            signalId)
        != null;
  }

  static int signalCount(Connection c, String waitpointId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM wait_signals WHERE waitpoint_id = ?",
        rs -> rs.getInt(1),
        waitpointId);
  }

  static void insertSignal(
      Connection c,
      String waitpointId,
      String signalId,
      int round,
      String status,
      String message,
      String member,
      JsonNode data,
      String via,
      Instant at)
      throws SQLException {
    Sql.update(
        c,
        "INSERT INTO wait_signals (waitpoint_id, signal_id, round, status, message, member, data,"
            + " via, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        waitpointId,
        signalId,
        round,
        status,
        message,
        member,
        data == null ? null : WireJson.mapper().writeValueAsString(data),
        via,
        at);
  }

  /** Keeps the newest {@code keep} progress signals of a waitpoint. */
  static void pruneProgress(Connection c, String waitpointId, int keep) throws SQLException {
    Sql.update(
        c,
        "DELETE FROM wait_signals WHERE waitpoint_id = ? AND status = 'progress' AND seq NOT IN"
            + " (SELECT seq FROM wait_signals WHERE waitpoint_id = ? AND status = 'progress'"
            + " ORDER BY seq DESC LIMIT ?)",
        waitpointId,
        waitpointId,
        keep);
  }

  /** How many distinct members reported (ok or fail) in a round; anonymous signals count apart. */
  static int reporters(Connection c, String waitpointId, int round) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(DISTINCT COALESCE(member, '~' || signal_id)) FROM wait_signals"
            + " WHERE waitpoint_id = ? AND round = ? AND status != 'progress'",
        rs -> rs.getInt(1),
        waitpointId,
        round);
  }

  /** The reports of rounds {@code from} to {@code to}: each member's latest, in arrival order. */
  static List<Waits.Report> reports(Connection c, String waitpointId, int from, int to)
      throws SQLException {
    Map<String, Waits.Report> latest = new LinkedHashMap<>();
    for (Object[] row :
        Sql.query(
            c,
            "SELECT round, signal_id, member, status, message, data, received_at, via"
                + " FROM wait_signals WHERE waitpoint_id = ? AND round BETWEEN ? AND ?"
                + " AND status != 'progress' ORDER BY seq",
            rs ->
                new Object[] {
                  rs.getInt("round")
                      + "|"
                      + (rs.getString("member") != null
                          ? "m:" + rs.getString("member")
                          : "s:" + rs.getString("signal_id")),
                  report(rs)
                },
            waitpointId,
            from,
            to)) {
      latest.remove((String) row[0]);
      latest.put((String) row[0], (Waits.Report) row[1]);
    }
    return new ArrayList<>(latest.values());
  }

  /** The newest {@code limit} progress reports, oldest first. */
  static List<Waits.Report> progress(Connection c, String waitpointId, int limit)
      throws SQLException {
    List<Waits.Report> newest =
        new ArrayList<>(
            Sql.query(
                c,
                "SELECT member, status, message, data, received_at, via FROM wait_signals"
                    + " WHERE waitpoint_id = ? AND status = 'progress' ORDER BY seq DESC LIMIT ?",
                WaitStore::report,
                waitpointId,
                limit));
    java.util.Collections.reverse(newest);
    return newest;
  }

  /** Whether any report of rounds {@code from} to {@code to} failed. */
  static boolean failed(Connection c, String waitpointId, int from, int to) throws SQLException {
    return Sql.one(
            c,
            "SELECT 1 FROM wait_signals WHERE waitpoint_id = ? AND round BETWEEN ? AND ?"
                + " AND status = 'fail' LIMIT 1",
            rs -> rs.getInt(1),
            waitpointId,
            from,
            to)
        != null;
  }

  private static Waits.Report report(ResultSet rs) throws SQLException {
    String data = rs.getString("data");
    return new Waits.Report(
        rs.getString("member"),
        rs.getString("status"),
        rs.getString("message"),
        data == null ? null : WireJson.mapper().readTree(data),
        rs.getString("received_at"),
        rs.getString("via"));
  }

  /** A wake owed to a session. */
  record Wake(
      long id,
      String waitpointId,
      String sessionId,
      String kind,
      Integer firstRound,
      Integer lastRound,
      String status,
      String warning,
      Instant waitedFrom,
      Instant createdAt,
      Instant dueAt) {}

  static long insertWake(
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

  static Wake wake(Connection c, long id) throws SQLException {
    return Sql.one(c, "SELECT * FROM wait_wakes WHERE id = ?", WaitStore::wake, id);
  }

  /** Wakes due and not yet taken, oldest first. */
  static List<Wake> due(Connection c, Instant now, int limit) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM wait_wakes WHERE delivered_at IS NULL AND claimed_at IS NULL"
            + " AND due_at <= ? ORDER BY id LIMIT ?",
        WaitStore::wake,
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

  /** Removes waitpoints that ended before {@code before} and owe no wake. */
  static int prune(Connection c, Instant before) throws SQLException {
    return Sql.update(
        c,
        "DELETE FROM waitpoints WHERE state IN ('resolved', 'expired', 'cancelled')"
            + " AND ended_at < ? AND NOT EXISTS (SELECT 1 FROM wait_wakes"
            + " WHERE wait_wakes.waitpoint_id = waitpoints.id AND delivered_at IS NULL)",
        before);
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

  private static Waitpoint waitpoint(ResultSet rs) throws SQLException {
    String members = rs.getString("members");
    return new Waitpoint(
        rs.getString("id"),
        rs.getString("session_id"),
        rs.getString("label"),
        rs.getString("intent"),
        members == null ? null : WireJson.mapper().readValue(members, STRINGS),
        rs.getInt("quorum"),
        rs.getInt("fail_fast") == 1,
        rs.getInt("max_signals"),
        rs.getString("device"),
        rs.getString("secret_sha256"),
        Waitpoint.State.of(rs.getString("state")),
        rs.getInt("round"),
        rs.getInt("fires"),
        Sql.instant(rs.getString("closing_until")),
        Sql.instant(rs.getString("last_fire_at")),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("expires_at")),
        Sql.instant(rs.getString("ended_at")));
  }
}
