package dev.cortex.server.sessions.store;

import dev.cortex.base.Redactor;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The sessions' inboxes: every message sent to a session, numbered in the order it came, and in one
 * of three states, durably (so that a restart, after kill -9 too, finds each where it was):
 *
 * <ul>
 *   <li>{@code queued}: it waits for a turn;
 *   <li>{@code offered}: it was given to a turn ({@code offered_to}), which has not acknowledged
 *       it;
 *   <li>{@code delivered}: the turn ({@code delivered_to}) acknowledged it; its {@code user} entry
 *       is written to the transcript in the same transaction, once.
 * </ul>
 *
 * A message offered to a turn that ended without acknowledging it, or to a server that died, goes
 * back to {@code queued}: its number puts it back at the head of the queue, in order.
 *
 * <p>A delivered message's text is cleared (the transcript has it, redacted), and its row is pruned
 * once it was delivered longer ago than a retention ({@link #prune}), but for the session's last
 * one, whose number the next message follows: numbers are never given twice.
 */
public final class Inbox {
  /** Where a message stands. */
  public enum State {
    QUEUED,
    OFFERED,
    DELIVERED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * A message of an inbox.
   *
   * @param seq its number in the session's inbox, from 1
   */
  public record Message(long seq, String text, String source, Instant at) {}

  /**
   * A message put in the inbox.
   *
   * @param added false when a message of the same key was there already (this is its number)
   * @param sessionId the session the message of this number is in: another than the one asked for
   *     when the key (unique across the sessions) was another session's
   */
  public record Enqueued(long seq, boolean added, String sessionId) {}

  /**
   * Where a message stands, and the turn it was offered to (offered) or delivered to (delivered).
   *
   * @param executionId null for a queued message
   */
  public record Standing(State state, String executionId) {}

  /** A message delivered, and its transcript entry. */
  public record Delivered(long seq, Transcript.Entry entry) {}

  private final Supplier<Database> database;
  private final Clock clock;
  private final Redactor redactor;

  Inbox(Supplier<Database> database, Clock clock, Redactor redactor) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.redactor = Objects.requireNonNull(redactor, "redactor");
  }

  /** Queues a message. */
  public long enqueue(String sessionId, String text, String source) {
    return enqueue(sessionId, text, source, null).seq();
  }

  /**
   * Queues a message once per {@code key}: a second message of the same key is not added (whatever
   * became of the first), so that a sender that retries after a crash does not send twice.
   *
   * @param key null for a message that has none
   */
  public Enqueued enqueue(String sessionId, String text, String source, String key) {
    Instant at = clock.instant();
    return database
        .get()
        .write(
            c -> {
              if (key != null) {
                Enqueued before =
                    Sql.one(
                        c,
                        "SELECT seq, session_id FROM session_inbox WHERE dedupe_key = ?",
                        rs -> new Enqueued(rs.getLong(1), false, rs.getString(2)),
                        key);
                if (before != null) {
                  return before;
                }
              }
              long next = SessionStore.nextSeq(c, "session_inbox", sessionId);
              Sql.update(
                  c,
                  "INSERT INTO session_inbox (session_id, seq, text, source, at, dedupe_key, state)"
                      + " VALUES (?, ?, ?, ?, ?, ?, 'queued')",
                  sessionId,
                  next,
                  text,
                  source,
                  at,
                  key);
              return new Enqueued(next, true, sessionId);
            });
  }

  /** The queued messages of a session, the head of the queue first. */
  public List<Message> queued(String sessionId) {
    return queued(sessionId, Integer.MAX_VALUE);
  }

  static final String QUEUED =
      "SELECT seq, text, source, at FROM session_inbox"
          + " WHERE session_id = ? AND state = 'queued' ORDER BY seq LIMIT ?";

  /** The first {@code limit} queued messages of a session, the head of the queue first. */
  public List<Message> queued(String sessionId, int limit) {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    QUEUED,
                    rs ->
                        new Message(
                            rs.getLong("seq"),
                            rs.getString("text"),
                            rs.getString("source"),
                            Sql.instant(rs.getString("at"))),
                    sessionId,
                    limit));
  }

  static final String WITH_QUEUED =
      "SELECT DISTINCT session_id FROM session_inbox WHERE state = 'queued' ORDER BY session_id";

  /** The sessions with queued messages. */
  public List<String> withQueued() {
    return database.get().read(c -> Sql.query(c, WITH_QUEUED, rs -> rs.getString(1)));
  }

  /** Where a message stands, or null when the session has no message {@code seq}. */
  public State state(String sessionId, long seq) {
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c,
                    "SELECT state FROM session_inbox WHERE session_id = ? AND seq = ?",
                    rs -> State.valueOf(rs.getString(1).toUpperCase(Locale.ROOT)),
                    sessionId,
                    seq));
  }

  /** Where a message stands, or null when the session has no message {@code seq}. */
  public Standing standing(String sessionId, long seq) {
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c,
                    "SELECT state, offered_to, delivered_to FROM session_inbox"
                        + " WHERE session_id = ? AND seq = ?",
                    rs -> {
                      State state = State.valueOf(rs.getString(1).toUpperCase(Locale.ROOT));
                      return new Standing(
                          state,
                          switch (state) {
                            case QUEUED -> null;
                            case OFFERED -> rs.getString(2);
                            case DELIVERED -> rs.getString(3);
                          });
                    },
                    sessionId,
                    seq));
  }

  /**
   * Offers queued messages to the turn {@code executionId}, in one transaction.
   *
   * @return the numbers of those that were queued (and are offered now), in order
   */
  public List<Long> offer(String sessionId, List<Long> seqs, String executionId) {
    return database
        .get()
        .write(
            c -> {
              List<Long> offered = new ArrayList<>();
              for (long seq : seqs) {
                if (Sql.update(
                        c,
                        "UPDATE session_inbox SET state = 'offered', offered_to = ?"
                            + " WHERE session_id = ? AND seq = ? AND state = 'queued'",
                        executionId,
                        sessionId,
                        seq)
                    == 1) {
                  offered.add(seq);
                }
              }
              return offered;
            });
  }

  /**
   * Delivers messages offered to the turn {@code executionId} and records them in the transcript,
   * in one transaction: a message is delivered once, and only by the turn it was offered to.
   *
   * @return the messages delivered now (not those delivered before, or offered to another turn)
   */
  public List<Delivered> deliver(String sessionId, List<Long> seqs, String executionId) {
    Instant at = SessionStore.now(clock);
    return database
        .get()
        .write(
            c -> {
              List<Delivered> delivered = new ArrayList<>();
              for (long seq : seqs) {
                Transcript.Entry entry = deliver(c, sessionId, seq, executionId, at);
                if (entry != null) {
                  delivered.add(new Delivered(seq, entry));
                }
              }
              return delivered;
            });
  }

  private Transcript.Entry deliver(
      Connection c, String sessionId, long seq, String executionId, Instant at)
      throws SQLException {
    Message message =
        Sql.one(
            c,
            "SELECT seq, text, source, at FROM session_inbox WHERE session_id = ? AND seq = ?"
                + " AND state = 'offered' AND offered_to = ?",
            rs ->
                new Message(
                    rs.getLong("seq"),
                    rs.getString("text"),
                    rs.getString("source"),
                    Sql.instant(rs.getString("at"))),
            sessionId,
            seq,
            executionId);
    if (message == null) {
      return null;
    }
    Sql.update(
        c,
        "UPDATE session_inbox SET state = 'delivered', delivered_to = ?, delivered_at = ?,"
            + " text = '' WHERE session_id = ? AND seq = ?",
        executionId,
        at,
        sessionId,
        seq);
    return SessionStore.append(
        c,
        sessionId,
        executionId,
        Transcript.Kind.USER,
        redactor.redact(Transcript.user(message.text(), message.source())),
        at);
  }

  static final String OFFERED_TO =
      "SELECT seq FROM session_inbox WHERE session_id = ? AND state = 'offered'"
          + " AND offered_to = ? ORDER BY seq";

  /**
   * Puts the messages offered to the turn {@code executionId} and not acknowledged back in the
   * queue (the turn ended).
   *
   * @return their numbers, in order
   */
  public List<Long> requeue(String sessionId, String executionId) {
    return database
        .get()
        .write(
            c -> {
              List<Long> seqs =
                  Sql.query(c, OFFERED_TO, rs -> rs.getLong(1), sessionId, executionId);
              Sql.update(
                  c,
                  "UPDATE session_inbox SET state = 'queued', offered_to = NULL"
                      + " WHERE session_id = ? AND state = 'offered' AND offered_to = ?",
                  sessionId,
                  executionId);
              return seqs;
            });
  }

  /** Puts one message offered to the turn {@code executionId} back in the queue. */
  public void requeue(String sessionId, long seq, String executionId) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "UPDATE session_inbox SET state = 'queued', offered_to = NULL"
                        + " WHERE session_id = ? AND seq = ? AND state = 'offered'"
                        + " AND offered_to = ?",
                    sessionId,
                    seq,
                    executionId));
  }

  /**
   * After a start (once the executions of dead processes are marked stale): every message offered
   * to a turn that no longer runs and not acknowledged goes back to the queue. A message offered to
   * a running turn (of this server: a turn's execution is recorded before anything is offered to
   * it) stays offered.
   *
   * @return how many
   */
  public int requeueOffered() {
    return database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "UPDATE session_inbox SET state = 'queued', offered_to = NULL"
                        + " WHERE state = 'offered' AND offered_to NOT IN"
                        + " (SELECT id FROM executions WHERE status = 'running')"));
  }

  /**
   * Forgets the messages delivered before {@code before}, but for each session's last message (the
   * next one's number follows it). A wake whose message is forgotten is no longer known by its key:
   * the retention is to be longer than any sender retries.
   *
   * @return how many
   */
  public int prune(Instant before) {
    return database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "DELETE FROM session_inbox WHERE state = 'delivered'"
                        + " AND COALESCE(delivered_at, at) < ? AND seq <"
                        + " (SELECT MAX(seq) FROM session_inbox AS last"
                        + " WHERE last.session_id = session_inbox.session_id)",
                    before));
  }
}
