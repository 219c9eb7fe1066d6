package dev.cortex.storage;

import java.sql.SQLException;

/**
 * The database could not do what was asked. The message is safe to log but is not meant for
 * clients: it may name tables, SQL errors and the database's path.
 */
public class StorageException extends RuntimeException {
  private static final int SQLITE_BUSY = 5;

  StorageException(String message) {
    super(message);
  }

  StorageException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Translates a driver failure: {@code SQLITE_BUSY} (and its extended codes) becomes a {@link
   * StorageBusyException}, anything else a plain {@code StorageException}.
   */
  static StorageException translate(String action, SQLException e) {
    if (isBusy(e)) {
      return new StorageBusyException(
          action + " failed: the database stayed locked by another writer", e);
    }
    return new StorageException(action + " failed: " + e.getMessage(), e);
  }

  /** sqlite-jdbc reports the primary result code in {@link SQLException#getErrorCode()}. */
  static boolean isBusy(SQLException e) {
    return (e.getErrorCode() & 0xff) == SQLITE_BUSY;
  }
}
