package dev.cortex.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs work between {@code BEGIN} and {@code COMMIT} on a connection in auto-commit mode, rolling
 * back on any failure. Driver failures become {@link StorageException}s; anything else the work
 * throws passes through unchanged after the rollback.
 */
final class Transaction {
  /** How a transaction starts and ends. */
  enum Mode {
    /**
     * A deferred transaction, so every query sees one snapshot; {@code query_only} makes an
     * accidental write fail instead of upgrading the lock.
     */
    READ("PRAGMA query_only = ON", "BEGIN DEFERRED", "PRAGMA query_only = OFF"),
    /** Takes the write lock up front, waiting up to the busy timeout for other writers. */
    WRITE(null, "BEGIN IMMEDIATE", null);

    private final String before;
    private final String begin;
    private final String after;

    Mode(String before, String begin, String after) {
      this.before = before;
      this.begin = begin;
      this.after = after;
    }
  }

  private Transaction() {}

  static <T> T run(Connection c, Mode mode, String action, SqlWork<T> work) {
    begin(c, mode, action);
    T result;
    try {
      result = work.run(c);
      execute(c, "COMMIT");
    } catch (SQLException e) {
      abandon(c, mode, e);
      throw StorageException.translate(action, e);
    } catch (RuntimeException | Error e) {
      abandon(c, mode, e);
      throw e;
    }
    try {
      execute(c, mode.after);
    } catch (SQLException e) {
      throw StorageException.translate(action, e);
    }
    return result;
  }

  private static void begin(Connection c, Mode mode, String action) {
    try {
      execute(c, mode.before);
      execute(c, mode.begin);
    } catch (SQLException e) {
      quietly(c, mode.after, e);
      throw StorageException.translate(action, e);
    }
  }

  private static void abandon(Connection c, Mode mode, Throwable failure) {
    quietly(c, "ROLLBACK", failure);
    quietly(c, mode.after, failure);
  }

  private static void quietly(Connection c, String sql, Throwable failure) {
    try {
      execute(c, sql);
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  private static void execute(Connection c, String sql) throws SQLException {
    if (sql == null) {
      return;
    }
    try (Statement statement = c.createStatement()) {
      statement.execute(sql);
    }
  }
}
