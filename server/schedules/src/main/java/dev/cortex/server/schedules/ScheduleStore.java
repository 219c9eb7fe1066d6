package dev.cortex.server.schedules;

import dev.cortex.base.Json;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The SQL of schedules and their fires; every method runs in its caller's transaction. */
public final class ScheduleStore {
  private ScheduleStore() {}

  /** What became of one due time of a schedule. */
  public record Fire(
      long id,
      String scheduleId,
      Instant dueAt,
      Instant claimedAt,
      String state,
      String reason,
      Integer checkExit,
      String checkTail,
      String sessionId,
      String executionId,
      String outcome,
      Instant startedAt,
      Instant endedAt) {}

  static final String CLAIMED = "claimed";
  static final String QUEUED = "queued";
  static final String STARTED = "started";
  static final String SKIPPED = "skipped";
  static final String MISSED = "missed";
  static final String FAILED = "failed";

  static void insert(Connection c, Schedule s) throws SQLException {
    String[] target = target(s.target());
    Sql.update(
        c,
        "INSERT INTO schedules (id, project, prompt, timing, target_kind, target, backend, model,"
            + " overlap, missed, grace_seconds, check_command, check_timeout_seconds,"
            + " working_directory, program, paused, next_due, created_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        s.id(),
        s.project(),
        s.prompt(),
        s.timing().text(),
        target[0],
        target[1],
        s.backend(),
        s.model(),
        s.overlap().name().toLowerCase(Locale.ROOT),
        s.missed().name().toLowerCase(Locale.ROOT),
        s.grace().getSeconds(),
        s.check() == null ? null : s.check().command(),
        s.check() == null ? null : s.check().timeout().getSeconds(),
        s.workingDirectory() == null ? null : s.workingDirectory().toString(),
        s.program() == null ? null : Json.write(s.program()),
        s.paused() ? 1 : 0,
        s.nextDue(),
        s.createdAt());
  }

  private static String[] target(Schedule.Target target) {
    if (target instanceof Schedule.Target.Channel channel) {
      return new String[] {"channel", channel.channel()};
    }
    if (target instanceof Schedule.Target.Session session) {
      return new String[] {"session", session.sessionId()};
    }
    return new String[] {"fresh", null};
  }

  static Schedule find(Connection c, String id) throws SQLException {
    return Sql.one(c, "SELECT * FROM schedules WHERE id = ?", ScheduleStore::schedule, id);
  }

  static List<Schedule> list(Connection c, String project) throws SQLException {
    return project == null
        ? Sql.query(c, "SELECT * FROM schedules ORDER BY created_at, id", ScheduleStore::schedule)
        : Sql.query(
            c,
            "SELECT * FROM schedules WHERE project = ? ORDER BY created_at, id",
            ScheduleStore::schedule,
            project);
  }

  static void state(Connection c, String id, boolean paused, Instant nextDue) throws SQLException {
    Sql.update(
        c,
        "UPDATE schedules SET paused = ?, next_due = ? WHERE id = ?",
        paused ? 1 : 0,
        nextDue,
        id);
  }

  static boolean delete(Connection c, String id) throws SQLException {
    Sql.update(c, "DELETE FROM schedule_fires WHERE schedule_id = ?", id);
    return Sql.update(c, "DELETE FROM schedules WHERE id = ?", id) > 0;
  }

  /**
   * Records the fire of {@code due}: its id, or -1 when that due time has a fire already (another
   * scheduler claimed it).
   */
  static long fire(
      Connection c, String scheduleId, Instant due, Instant now, String state, String reason)
      throws SQLException {
    return fire(c, scheduleId, due, now, state, reason, false);
  }

  /** The same, for a fire asked for by hand ({@code manual}), which has keys of its own. */
  static long fire(
      Connection c,
      String scheduleId,
      Instant due,
      Instant now,
      String state,
      String reason,
      boolean manual)
      throws SQLException {
    int added =
        Sql.update(
            c,
            "INSERT OR IGNORE INTO schedule_fires (schedule_id, due_at, claimed_at, state, reason,"
                + " manual) VALUES (?, ?, ?, ?, ?, ?)",
            scheduleId,
            due,
            now,
            state,
            reason,
            manual ? 1 : 0);
    if (added == 0) {
      return -1;
    }
    return Sql.one(c, "SELECT last_insert_rowid()", rs -> rs.getLong(1));
  }

  static void fireState(Connection c, long fireId, String state, String reason)
      throws SQLException {
    Sql.update(
        c, "UPDATE schedule_fires SET state = ?, reason = ? WHERE id = ?", state, reason, fireId);
  }

  static void checked(Connection c, long fireId, int exit, String tail) throws SQLException {
    Sql.update(
        c,
        "UPDATE schedule_fires SET check_exit = ?, check_tail = ? WHERE id = ?",
        exit,
        tail,
        fireId);
  }

  static void started(Connection c, long fireId, String sessionId, String executionId, Instant at)
      throws SQLException {
    Sql.update(
        c,
        "UPDATE schedule_fires SET state = 'started', reason = NULL, session_id = ?,"
            + " execution_id = COALESCE(execution_id, ?), started_at = ? WHERE id = ?",
        sessionId,
        executionId,
        at,
        fireId);
  }

  /**
   * A turn of {@code sessionId} ended: the fire whose run it was gets its outcome (the fire that
   * knows its execution, else the oldest started fire of the session that knows none); whether one
   * did.
   */
  static boolean ended(
      Connection c, String sessionId, String executionId, String outcome, Instant at)
      throws SQLException {
    int exact =
        Sql.update(
            c,
            "UPDATE schedule_fires SET outcome = ?, ended_at = ? WHERE execution_id = ? AND"
                + " outcome IS NULL",
            outcome,
            at,
            executionId);
    if (exact > 0) {
      return true;
    }
    return Sql.update(
            c,
            "UPDATE schedule_fires SET execution_id = ?, outcome = ?, ended_at = ? WHERE id ="
                + " (SELECT id FROM schedule_fires WHERE session_id = ? AND state = 'started' AND"
                + " execution_id IS NULL AND outcome IS NULL ORDER BY id LIMIT 1)",
            executionId,
            outcome,
            at,
            sessionId)
        > 0;
  }

  static List<Fire> fires(Connection c, String scheduleId, int limit) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM schedule_fires WHERE schedule_id = ? ORDER BY id DESC LIMIT ?",
        ScheduleStore::fire,
        scheduleId,
        limit);
  }

  static List<Fire> inState(Connection c, String state) throws SQLException {
    return Sql.query(
        c, "SELECT * FROM schedule_fires WHERE state = ? ORDER BY id", ScheduleStore::fire, state);
  }

  /** The last fire of a schedule that started a run, or null. */
  static Fire lastStarted(Connection c, String scheduleId) throws SQLException {
    return Sql.one(
        c,
        "SELECT * FROM schedule_fires WHERE schedule_id = ? AND state = 'started'"
            + " ORDER BY id DESC LIMIT 1",
        ScheduleStore::fire,
        scheduleId);
  }

  /** Fires of a schedule claimed or queued that have not started yet. */
  static int pending(Connection c, String scheduleId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM schedule_fires WHERE schedule_id = ? AND state IN ('claimed',"
            + " 'queued')",
        rs -> rs.getInt(1),
        scheduleId);
  }

  static int claimed(Connection c, String scheduleId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM schedule_fires WHERE schedule_id = ? AND state = 'claimed'",
        rs -> rs.getInt(1),
        scheduleId);
  }

  static int queued(Connection c, String scheduleId) throws SQLException {
    return Sql.one(
        c,
        "SELECT COUNT(*) FROM schedule_fires WHERE schedule_id = ? AND state = 'queued'",
        rs -> rs.getInt(1),
        scheduleId);
  }

  private static Schedule schedule(ResultSet rs) throws SQLException {
    String targetKind = rs.getString("target_kind");
    Schedule.Target target =
        switch (targetKind) {
          case "channel" -> new Schedule.Target.Channel(rs.getString("target"));
          case "session" -> new Schedule.Target.Session(rs.getString("target"));
          default -> new Schedule.Target.Fresh();
        };
    String command = rs.getString("check_command");
    String directory = rs.getString("working_directory");
    String program = rs.getString("program");
    return new Schedule(
        rs.getString("id"),
        rs.getString("project"),
        rs.getString("prompt"),
        Timing.parse(rs.getString("timing")),
        target,
        rs.getString("backend"),
        rs.getString("model"),
        Schedule.Overlap.valueOf(rs.getString("overlap").toUpperCase(Locale.ROOT)),
        Schedule.Missed.valueOf(rs.getString("missed").toUpperCase(Locale.ROOT)),
        Duration.ofSeconds(rs.getLong("grace_seconds")),
        command == null
            ? null
            : new Schedule.Check(command, Duration.ofSeconds(rs.getLong("check_timeout_seconds"))),
        directory == null ? null : Path.of(directory),
        program == null ? null : List.of(Json.mapper().readValue(program, String[].class)),
        rs.getInt("paused") == 1,
        Sql.instant(rs.getString("next_due")),
        Sql.instant(rs.getString("created_at")));
  }

  private static Fire fire(ResultSet rs) throws SQLException {
    int exit = rs.getInt("check_exit");
    Integer checkExit = rs.wasNull() ? null : exit;
    return new Fire(
        rs.getLong("id"),
        rs.getString("schedule_id"),
        Sql.instant(rs.getString("due_at")),
        Sql.instant(rs.getString("claimed_at")),
        rs.getString("state"),
        rs.getString("reason"),
        checkExit,
        rs.getString("check_tail"),
        rs.getString("session_id"),
        rs.getString("execution_id"),
        rs.getString("outcome"),
        Sql.instant(rs.getString("started_at")),
        Sql.instant(rs.getString("ended_at")));
  }
}
