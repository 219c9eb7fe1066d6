package dev.cortex.server.workbench;

import dev.cortex.base.Hashes;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Migration;
import dev.cortex.storage.Sql;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The workbench's sign-in: one-time links ({@code cxl_…}, valid once for {@link #LINK_VALID_FOR})
 * exchanged for browser sessions ({@code cxc_…}, the cookie) that end after the session length, at
 * sign-out, or at logout-all. Only SHA-256 hashes of links and cookies are stored; the csrf token
 * of a session is not a credential on its own and is kept as it is.
 */
public final class Signins {
  public static final Duration LINK_VALID_FOR = Duration.ofMinutes(10);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<Database> database;
  private final Clock clock;
  private final Duration sessionLength;

  public Signins(Supplier<Database> database, Clock clock, Duration sessionLength) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sessionLength = Objects.requireNonNull(sessionLength, "sessionLength");
  }

  /** The workbench's tables: sign-in links, browser sessions and the event journal. */
  public static Area area() {
    return Area.of(
        "workbench",
        Migration.sql(
            1,
            """
            CREATE TABLE ui_links (
              link_sha256 TEXT PRIMARY KEY,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL,
              used_at TEXT
            );
            CREATE TABLE ui_sessions (
              cookie_sha256 TEXT PRIMARY KEY,
              csrf TEXT NOT NULL,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL
            );
            CREATE TABLE ui_events (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              at TEXT NOT NULL,
              type TEXT NOT NULL,
              session TEXT,
              data TEXT NOT NULL
            );
            CREATE INDEX ui_events_by_at ON ui_events (at);
            """));
  }

  /** A new link's secret (it goes into the URL's fragment) and when it stops working. */
  public record Link(String secret, Instant expiresAt) {}

  /** A browser session: the cookie's value (given once), its csrf token and its end. */
  public record Session(String cookie, String csrf, Instant expiresAt) {}

  /** A session found by its cookie: its csrf token and its end. */
  public record Found(String csrf, Instant expiresAt) {}

  /** Mints a one-time link. */
  public Link link() {
    String secret = "cxl_" + random(32);
    Instant now = clock.instant();
    Instant expires = now.plus(LINK_VALID_FOR);
    database
        .get()
        .write(
            c -> {
              Sql.update(
                  c, "DELETE FROM ui_links WHERE expires_at < ? OR used_at IS NOT NULL", now);
              return Sql.update(
                  c,
                  "INSERT INTO ui_links (link_sha256, created_at, expires_at) VALUES (?, ?, ?)",
                  sha256(secret),
                  now,
                  expires);
            });
    return new Link(secret, expires);
  }

  /** Exchanges a link for a session; null when the link is unknown, expired or used. */
  public Session signIn(String link) {
    if (link == null || link.isBlank() || link.length() > 200) {
      return null;
    }
    Instant now = clock.instant();
    String cookie = "cxc_" + random(32);
    String csrf = random(24);
    Instant expires = now.plus(sessionLength);
    boolean done =
        database
            .get()
            .write(
                c -> {
                  int used =
                      Sql.update(
                          c,
                          """
                          UPDATE ui_links SET used_at = ?
                          WHERE link_sha256 = ? AND used_at IS NULL AND expires_at >= ?
                          """,
                          now,
                          sha256(link.strip()),
                          now);
                  if (used != 1) {
                    return false;
                  }
                  Sql.update(c, "DELETE FROM ui_sessions WHERE expires_at < ?", now);
                  Sql.update(
                      c,
                      "INSERT INTO ui_sessions (cookie_sha256, csrf, created_at, expires_at)"
                          + " VALUES (?, ?, ?, ?)",
                      sha256(cookie),
                      csrf,
                      now,
                      expires);
                  return true;
                });
    return done ? new Session(cookie, csrf, expires) : null;
  }

  /** The live session of {@code cookie}, or null. */
  public Found find(String cookie) {
    if (cookie == null || cookie.isEmpty() || cookie.length() > 200) {
      return null;
    }
    Instant now = clock.instant();
    return database
        .get()
        .read(
            c ->
                Sql.one(
                    c,
                    "SELECT csrf, expires_at FROM ui_sessions"
                        + " WHERE cookie_sha256 = ? AND expires_at > ?",
                    rs -> new Found(rs.getString(1), Sql.instant(rs.getString(2))),
                    sha256(cookie),
                    now));
  }

  /** Ends the session of {@code cookie}. */
  public void signOut(String cookie) {
    if (cookie == null) {
      return;
    }
    database
        .get()
        .write(
            c -> Sql.update(c, "DELETE FROM ui_sessions WHERE cookie_sha256 = ?", sha256(cookie)));
  }

  /** Ends every session (and every unused link); how many sessions ended. */
  public int logoutAll() {
    return database
        .get()
        .write(
            c -> {
              Sql.update(c, "DELETE FROM ui_links");
              return Sql.update(c, "DELETE FROM ui_sessions");
            });
  }

  /** Drops expired sessions and spent links (the daemon's housekeeping). */
  public void sweep() {
    Instant now = clock.instant();
    database
        .get()
        .write(
            c -> {
              Sql.update(
                  c, "DELETE FROM ui_links WHERE expires_at < ? OR used_at IS NOT NULL", now);
              return Sql.update(c, "DELETE FROM ui_sessions WHERE expires_at < ?", now);
            });
  }

  private static String random(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }

  static String sha256(String text) {
    return Hashes.sha256(text);
  }
}
