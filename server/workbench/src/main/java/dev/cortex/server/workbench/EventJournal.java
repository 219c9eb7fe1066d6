package dev.cortex.server.workbench;

import dev.cortex.base.Json;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The workbench's live events, kept in SQLite ({@code ui_events}) so that their ids are global,
 * increasing and durable across restarts: a page that reconnects with the last id it saw gets every
 * event after it. Capped by {@link #sweep()} to the newest {@value #MAX_EVENTS} events and {@link
 * #MAX_AGE}.
 */
public final class EventJournal {
  public static final int MAX_EVENTS = 50_000;
  public static final Duration MAX_AGE = Duration.ofDays(7);

  private final Supplier<Database> database;
  private final Clock clock;
  private final Object changed = new Object();

  /** How often {@link #wake} was called, guarded by {@link #changed}. */
  private long wakes;

  private volatile long newest;

  /** One event: its id, type, session (or null) and data (one JSON object). */
  public record Event(long id, String type, String session, String data) {}

  public EventJournal(Supplier<Database> database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    Long last =
        database.get().read(c -> Sql.one(c, "SELECT MAX(id) FROM ui_events", rs -> rs.getLong(1)));
    newest = last == null ? 0 : last;
  }

  /**
   * Records an event and wakes the streams; its id. The seam the daemon feeds (sessions,
   * interactions) and other parts may feed too (the web group's changes).
   *
   * @param data a value that becomes the event's one JSON line (never a payload: ids and names)
   */
  public long publish(String type, String session, Object data) {
    Objects.requireNonNull(type, "type");
    String json = Json.write(data);
    long id =
        database
            .get()
            .write(
                c -> {
                  Sql.update(
                      c,
                      "INSERT INTO ui_events (at, type, session, data) VALUES (?, ?, ?, ?)",
                      clock.instant(),
                      type,
                      session,
                      json);
                  return Sql.one(c, "SELECT last_insert_rowid()", rs -> rs.getLong(1));
                });
    synchronized (changed) {
      newest = Math.max(newest, id);
      changed.notifyAll();
    }
    return id;
  }

  /** Up to {@code limit} events after {@code after}, of {@code session} only when given. */
  public List<Event> after(long after, String session, int limit) {
    return database
        .get()
        .read(
            c ->
                session == null
                    ? Sql.query(
                        c,
                        "SELECT id, type, session, data FROM ui_events WHERE id > ?"
                            + " ORDER BY id LIMIT ?",
                        rs ->
                            new Event(
                                rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                        after,
                        limit)
                    : Sql.query(
                        c,
                        "SELECT id, type, session, data FROM ui_events WHERE id > ? AND session = ?"
                            + " ORDER BY id LIMIT ?",
                        rs ->
                            new Event(
                                rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)),
                        after,
                        session,
                        limit));
  }

  /**
   * Whether events after {@code after} were swept already: the oldest kept id is past the one that
   * would follow it (a page must then reload its state).
   */
  public boolean lost(long after) {
    if (after <= 0) {
      return false;
    }
    Long oldest =
        database
            .get()
            .read(
                c ->
                    Sql.one(
                        c,
                        "SELECT MIN(id) FROM ui_events",
                        rs -> rs.getObject(1) == null ? null : rs.getLong(1)));
    if (oldest == null) {
      return after < newest;
    }
    return oldest > after + 1;
  }

  /** Wakes every waiting stream (to end them): each {@link #await} returns. */
  void wake() {
    synchronized (changed) {
      wakes++;
      changed.notifyAll();
    }
  }

  /** The newest id recorded. */
  public long newest() {
    return newest;
  }

  /**
   * Waits until an event newer than {@code seen} is recorded, {@link #wake} is called, or {@code
   * timeout} passed.
   */
  public void await(long seen, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    synchronized (changed) {
      long woken = wakes;
      while (newest <= seen && wakes == woken) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return;
        }
        changed.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  /** Keeps the newest {@value #MAX_EVENTS} events of the last {@link #MAX_AGE}. */
  public void sweep() {
    Instant cutoff = clock.instant().minus(MAX_AGE);
    database
        .get()
        .write(
            c -> {
              Sql.update(c, "DELETE FROM ui_events WHERE at < ?", cutoff);
              return Sql.update(
                  c,
                  "DELETE FROM ui_events WHERE id <= (SELECT MAX(id) FROM ui_events) - ?",
                  MAX_EVENTS);
            });
  }
}
