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
 * The SQL of waitpoints and the signals they received ({@code waitpoints}, {@code wait_signals});
 * the wakes they owe are {@link WakeStore}'s. Every method runs in its caller's transaction.
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

  /** The newest waitpoints in {@code states} (all when empty), newest first. */
  static List<Waitpoint> newest(Connection c, List<Waitpoint.State> states, int limit)
      throws SQLException {
    List<Object> args = new ArrayList<>();
    StringBuilder sql = new StringBuilder("SELECT * FROM waitpoints");
    if (!states.isEmpty()) {
      sql.append(" WHERE state IN (");
      for (int i = 0; i < states.size(); i++) {
        sql.append(i == 0 ? "?" : ", ?");
        args.add(states.get(i).wire());
      }
      sql.append(')');
    }
    sql.append(" ORDER BY created_at DESC, id DESC LIMIT ?");
    args.add(limit);
    return Sql.query(c, sql.toString(), WaitStore::waitpoint, args.toArray());
  }

  /** The newest {@code limit} signals of any kind (progress too), oldest first. */
  static List<Waits.Report> signals(Connection c, String waitpointId, int limit)
      throws SQLException {
    return newestSignals(c, waitpointId, "", limit);
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
    return newestSignals(c, waitpointId, " AND status = 'progress'", limit);
  }

  /** The newest {@code limit} signals that also meet {@code where}, oldest first. */
  private static List<Waits.Report> newestSignals(
      Connection c, String waitpointId, String where, int limit) throws SQLException {
    List<Waits.Report> newest =
        new ArrayList<>(
            Sql.query(
                c,
                "SELECT member, status, message, data, received_at, via FROM wait_signals"
                    + " WHERE waitpoint_id = ?"
                    + where
                    + " ORDER BY seq DESC LIMIT ?",
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

  /** Removes waitpoints that ended before {@code before} and owe no wake. */
  static int prune(Connection c, Instant before) throws SQLException {
    return Sql.update(
        c,
        "DELETE FROM waitpoints WHERE state IN ('resolved', 'expired', 'cancelled')"
            + " AND ended_at < ? AND NOT EXISTS (SELECT 1 FROM wait_wakes"
            + " WHERE wait_wakes.waitpoint_id = waitpoints.id AND delivered_at IS NULL)",
        before);
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
