package dev.cortex.server.sessions.store;

import dev.cortex.base.Redactor;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import tools.jackson.core.type.TypeReference;

/**
 * Sessions and their transcripts, in the home's database; their inboxes are {@link Inbox}. A
 * transcript is append-only.
 */
public final class SessionStore {
  private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {};

  private final Supplier<Database> database;
  private final Clock clock;
  private final Redactor redactor;

  /** A store whose transcripts lose the values tools mark secret ({@link Redactor#marked()}). */
  public SessionStore(Supplier<Database> database, Clock clock) {
    this(database, clock, Redactor.marked());
  }

  /**
   * A store whose transcript entries lose every secret {@code redactor} knows before they are kept
   * (and handed to followers).
   */
  public SessionStore(Supplier<Database> database, Clock clock, Redactor redactor) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.redactor = Objects.requireNonNull(redactor, "redactor");
  }

  /** Inserts a new session. */
  public Session create(Session session) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    """
                    INSERT INTO sessions (id, name, channel, project, backend, model, provider, thinking, mode,
                      composition, started_by, tool_allowlist, program, working_dir, state,
                      backend_session_id, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    session.id(),
                    session.name(),
                    session.channel(),
                    session.project(),
                    session.backend(),
                    session.model(),
                    session.provider(),
                    session.thinking(),
                    session.mode(),
                    session.composition().wire(),
                    session.startedBy().wire(),
                    json(session.toolAllowlist()),
                    json(session.program()),
                    session.workingDirectory().toString(),
                    session.state().wire(),
                    session.backendSessionId(),
                    session.createdAt(),
                    session.updatedAt()));
    return session;
  }

  private static String json(List<String> list) {
    return list == null ? null : StoreJson.MAPPER.writeValueAsString(list);
  }

  /** The session whose id or name is {@code idOrName}, or null. */
  public Session find(String idOrName) {
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c,
                    "SELECT * FROM sessions WHERE id = ? OR name = ?",
                    SessionStore::session,
                    idOrName,
                    idOrName));
  }

  /** The session bound to {@code channel}, or null. */
  public Session findByChannel(String channel) {
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c, "SELECT * FROM sessions WHERE channel = ?", SessionStore::session, channel));
  }

  /** Whether a session is bound to {@code channel}. */
  public boolean channelTaken(String channel) {
    return database
            .get()
            .read(c -> Sql.one(c, "SELECT 1 FROM sessions WHERE channel = ?", rs -> 1, channel))
        != null;
  }

  /** Sessions, most recently active first. */
  public List<Session> list(int limit) {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    "SELECT * FROM sessions ORDER BY updated_at DESC, id LIMIT ?",
                    SessionStore::session,
                    limit));
  }

  /** Sessions a turn was running in (when the server stopped, for one just started). */
  public List<Session> running() {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    "SELECT * FROM sessions WHERE state = 'running' ORDER BY id",
                    SessionStore::session));
  }

  public void state(String id, Session.State state) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "UPDATE sessions SET state = ?, updated_at = ? WHERE id = ?",
                    state.wire(),
                    clock.instant(),
                    id));
  }

  public void backendSessionId(String id, String backendSessionId) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "UPDATE sessions SET backend_session_id = ?, updated_at = ? WHERE id = ?",
                    backendSessionId,
                    clock.instant(),
                    id));
  }

  /**
   * {@code text} without the secrets this store's transcripts lose, for what a turn says outside
   * its transcript (its result, its error); null stays null.
   */
  public String redact(String text) {
    return text == null ? null : redactor.redact(text);
  }

  /**
   * Appends an entry to a session's transcript, its secrets taken out, and returns it with its
   * number.
   */
  public Transcript.Entry append(
      String sessionId, String executionId, Transcript.Kind kind, String entry) {
    String body = redactor.redact(entry);
    Instant at = now(clock);
    return database.get().write(c -> append(c, sessionId, executionId, kind, body, at));
  }

  /**
   * Appends an entry whose secrets are already taken out to a session's transcript, in the caller's
   * transaction.
   */
  static Transcript.Entry append(
      Connection c,
      String sessionId,
      String executionId,
      Transcript.Kind kind,
      String body,
      Instant at)
      throws SQLException {
    long next = nextSeq(c, "session_transcript", sessionId);
    Sql.update(
        c,
        "INSERT INTO session_transcript (session_id, seq, execution_id, kind, body, at)"
            + " VALUES (?, ?, ?, ?, ?, ?)",
        sessionId,
        next,
        executionId,
        kind.wire(),
        body,
        at);
    return new Transcript.Entry(next, executionId, kind, body, at);
  }

  /**
   * Now, to the millisecond the database keeps: an entry handed to followers as it is recorded is
   * the same as the one read back later.
   */
  static Instant now(Clock clock) {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /** The inboxes of the sessions, in the same database. */
  public Inbox inbox() {
    return new Inbox(database, clock, redactor);
  }

  static long nextSeq(Connection c, String table, String sessionId) throws SQLException {
    Long max =
        Sql.one(
            c,
            "SELECT MAX(seq) FROM " + table + " WHERE session_id = ?",
            rs -> rs.getObject(1) == null ? 0L : rs.getLong(1),
            sessionId);
    return (max == null ? 0 : max) + 1;
  }

  /** A page of a session's transcript: entries after {@code afterSeq}, at most {@code limit}. */
  public List<Transcript.Entry> transcript(String sessionId, long afterSeq, int limit) {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    "SELECT seq, execution_id, kind, body, at FROM session_transcript"
                        + " WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                    SessionStore::entry,
                    sessionId,
                    afterSeq,
                    limit));
  }

  /**
   * The {@code limit} entries just before {@code beforeSeq} (the newest ones, for a number past the
   * end), oldest first: a transcript read backwards one page at a time.
   */
  public List<Transcript.Entry> transcriptBefore(String sessionId, long beforeSeq, int limit) {
    List<Transcript.Entry> newestFirst =
        database
            .get()
            .read(
                c ->
                    Sql.query(
                        c,
                        "SELECT seq, execution_id, kind, body, at FROM session_transcript"
                            + " WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
                        SessionStore::entry,
                        sessionId,
                        beforeSeq,
                        limit));
    List<Transcript.Entry> ordered = new java.util.ArrayList<>(newestFirst);
    java.util.Collections.reverse(ordered);
    return ordered;
  }

  /** The newest entry of {@code kind} that the turn {@code executionId} wrote, or null. */
  public Transcript.Entry lastOf(String sessionId, String executionId, Transcript.Kind kind) {
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c,
                    "SELECT seq, execution_id, kind, body, at FROM session_transcript"
                        + " WHERE session_id = ? AND execution_id = ? AND kind = ?"
                        + " ORDER BY seq DESC LIMIT 1",
                    SessionStore::entry,
                    sessionId,
                    executionId,
                    kind.wire()));
  }

  private static Transcript.Entry entry(ResultSet rs) throws SQLException {
    return new Transcript.Entry(
        rs.getLong("seq"),
        rs.getString("execution_id"),
        Transcript.Kind.of(rs.getString("kind")),
        rs.getString("body"),
        Sql.instant(rs.getString("at")));
  }

  private static Session session(ResultSet rs) throws SQLException {
    return new Session(
        rs.getString("id"),
        rs.getString("name"),
        rs.getString("channel"),
        rs.getString("project"),
        rs.getString("backend"),
        rs.getString("model"),
        rs.getString("provider"),
        rs.getString("thinking"),
        rs.getString("mode"),
        Session.Composition.valueOf(rs.getString("composition").toUpperCase(java.util.Locale.ROOT)),
        Session.StartedBy.valueOf(rs.getString("started_by").toUpperCase(java.util.Locale.ROOT)),
        list(rs.getString("tool_allowlist")),
        list(rs.getString("program")),
        Path.of(rs.getString("working_dir")),
        Session.State.valueOf(rs.getString("state").toUpperCase(java.util.Locale.ROOT)),
        rs.getString("backend_session_id"),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("updated_at")));
  }

  private static List<String> list(String json) {
    return json == null ? null : StoreJson.MAPPER.readValue(json, STRINGS);
  }
}
