package dev.cortex.server.sessions.store;

import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The execution registry. A running record names its owner process; one whose owner is gone is
 * found on every look and marked {@code stale}. Ends are written only over {@code running}, so a
 * terminal record never changes.
 */
public final class Executions {
  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<Database> database;
  private final Clock clock;

  public Executions(Supplier<Database> database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Records a running execution owned by this process and returns its id. */
  public String start(String kind, Session session) {
    Instant now = clock.instant();
    byte[] random = new byte[4];
    RANDOM.nextBytes(random);
    String id = "ex-" + ID_TIME.format(now) + "-" + HexFormat.of().formatHex(random);
    ProcessHandle self = ProcessHandle.current();
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    """
                    INSERT INTO executions (id, kind, status, channel, project, session_id, backend,
                      model, started_at, owner_pid, owner_start)
                    VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    id,
                    kind,
                    session.channel(),
                    session.project(),
                    session.id(),
                    session.backend(),
                    session.model(),
                    now,
                    self.pid(),
                    self.info().startInstant().map(Instant::toString).orElse(null)));
    return id;
  }

  /**
   * Ends a running execution; a terminal one is left as it is.
   *
   * @return whether it was running
   */
  public boolean finish(
      String id, Execution.Status status, String output, String error, double costUsd, int turns) {
    if (!status.terminal()) {
      throw new IllegalArgumentException("an end needs a terminal status, not " + status);
    }
    return database
            .get()
            .write(
                c ->
                    Sql.update(
                        c,
                        """
                        UPDATE executions SET status = ?, ended_at = ?, output = ?, error = ?,
                          cost_usd = ?, turns = ?
                        WHERE id = ? AND status = 'running'
                        """,
                        status.wire(),
                        clock.instant(),
                        output,
                        error,
                        costUsd,
                        turns,
                        id))
        == 1;
  }

  /** Marks {@code stale} the running executions whose owner process is gone; returns them. */
  public List<String> sweep() {
    record Owned(String id, long pid, String start) {}
    List<Owned> running =
        database
            .get()
            .read(
                c ->
                    Sql.query(
                        c,
                        "SELECT id, owner_pid, owner_start FROM executions WHERE status = 'running'",
                        rs -> new Owned(rs.getString(1), rs.getLong(2), rs.getString(3))));
    List<String> stale = new ArrayList<>();
    for (Owned owned : running) {
      if (!alive(owned.pid(), owned.start())) {
        stale.add(owned.id());
      }
    }
    if (!stale.isEmpty()) {
      Instant now = clock.instant();
      database
          .get()
          .write(
              c -> {
                for (String id : stale) {
                  Sql.update(
                      c,
                      "UPDATE executions SET status = 'stale', ended_at = ?,"
                          + " error = 'its process ended before it recorded an end'"
                          + " WHERE id = ? AND status = 'running'",
                      now,
                      id);
                }
                return null;
              });
    }
    return stale;
  }

  private static boolean alive(long pid, String start) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    String actual = handle.get().info().startInstant().map(Instant::toString).orElse(null);
    return start == null || actual == null || start.equals(actual);
  }

  /** What to look up; a null field does not filter. */
  public record Query(
      String id, Execution.Status status, String project, String sessionId, int limit) {
    public Query(String id, Execution.Status status, String project, int limit) {
      this(id, status, project, null, limit);
    }
  }

  /** Executions newest first (after marking stale ones), filtered as {@code query} says. */
  public List<Execution> query(Query query) {
    sweep();
    StringBuilder sql = new StringBuilder("SELECT * FROM executions WHERE 1 = 1");
    List<Object> args = new ArrayList<>();
    if (query.id() != null) {
      sql.append(" AND id = ?");
      args.add(query.id());
    }
    if (query.status() != null) {
      sql.append(" AND status = ?");
      args.add(query.status().wire());
    }
    if (query.project() != null) {
      sql.append(" AND project = ?");
      args.add(query.project());
    }
    if (query.sessionId() != null) {
      sql.append(" AND session_id = ?");
      args.add(query.sessionId());
    }
    sql.append(" ORDER BY started_at DESC, id DESC LIMIT ?");
    args.add(query.limit());
    return database
        .get()
        .read(c -> Sql.query(c, sql.toString(), Executions::execution, args.toArray()));
  }

  public Execution get(String id) {
    List<Execution> found = query(new Query(id, null, null, 1));
    return found.isEmpty() ? null : found.get(0);
  }

  private static Execution execution(ResultSet rs) throws SQLException {
    return new Execution(
        rs.getString("id"),
        rs.getString("kind"),
        Execution.Status.of(rs.getString("status")),
        rs.getString("channel"),
        rs.getString("project"),
        rs.getString("session_id"),
        rs.getString("backend"),
        rs.getString("model"),
        Sql.instant(rs.getString("started_at")),
        Sql.instant(rs.getString("ended_at")),
        rs.getDouble("cost_usd"),
        rs.getInt("turns"),
        rs.getString("output"),
        rs.getString("error"));
  }
}
