package dev.cortex.storage;

import dev.cortex.base.CortexHome;
import dev.cortex.storage.Transaction.Mode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SQLite database the capability areas share: {@value #FILE_NAME} in the data directory.
 *
 * <p>Constructing a database touches nothing. The first {@link #read} or {@link #write} creates the
 * data directory and the file (owner-only), opens the connection in WAL mode with a busy timeout
 * and foreign keys on, and migrates every area to its latest version. Several processes may share
 * the file: writers queue on SQLite's write lock for up to the busy timeout.
 *
 * <p>Each call is one transaction on the database's single connection; threads take turns. Work
 * that throws a {@link RuntimeException} is rolled back and the exception passes through unchanged;
 * an {@link SQLException} is rolled back and surfaces as a {@link StorageException}.
 */
public final class Database implements AutoCloseable {
  public static final String FILE_NAME = "cortex.sqlite3";
  static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(10);

  private final DatabaseFile file;
  private final Migrator migrator;
  private final Duration busyTimeout;
  private final ReentrantLock lock = new ReentrantLock();
  private Connection connection;
  private boolean closed;

  /** The database in {@code home}'s data directory, recording migrations in UTC system time. */
  public Database(CortexHome home, List<Area> areas) {
    this(home, areas, Synchronous.NORMAL);
  }

  /**
   * As {@link #Database(CortexHome, List)}, its commits made durable as {@code synchronous} says.
   */
  public Database(CortexHome home, List<Area> areas, Synchronous synchronous) {
    this(home.dataDir(), areas, Clock.systemUTC(), DEFAULT_BUSY_TIMEOUT, synchronous);
  }

  public Database(Path dataDir, List<Area> areas, Clock clock) {
    this(dataDir, areas, clock, DEFAULT_BUSY_TIMEOUT);
  }

  Database(Path dataDir, List<Area> areas, Clock clock, Duration busyTimeout) {
    this(dataDir, areas, clock, busyTimeout, Synchronous.NORMAL);
  }

  Database(
      Path dataDir, List<Area> areas, Clock clock, Duration busyTimeout, Synchronous synchronous) {
    this.file = new DatabaseFile(dataDir.resolve(FILE_NAME), synchronous);
    this.migrator = new Migrator(distinct(areas), Objects.requireNonNull(clock, "clock"), path());
    this.busyTimeout = Objects.requireNonNull(busyTimeout, "busyTimeout");
  }

  private static List<Area> distinct(List<Area> areas) {
    Set<String> names = new HashSet<>();
    for (Area area : areas) {
      if (!names.add(area.name())) {
        throw new IllegalArgumentException("area '" + area.name() + "' is registered twice");
      }
    }
    return List.copyOf(areas);
  }

  /** Where the database lives (or will, once first used). */
  public Path path() {
    return file.path();
  }

  /**
   * Runs read-only work in a deferred transaction, so every query sees the same snapshot. Writing
   * inside it fails.
   *
   * @throws StorageException when the database cannot be opened, migrated or read
   * @throws IllegalStateException when called from inside another transaction or after close
   */
  public <T> T read(SqlWork<T> work) {
    return inTransaction(Mode.READ, "read transaction", work);
  }

  /**
   * Runs work in a {@code BEGIN IMMEDIATE} transaction: it holds the write lock from the start, and
   * commits only if the work returns normally.
   *
   * @throws StorageBusyException when another writer held the lock longer than the busy timeout
   * @throws StorageException when the database cannot be opened, migrated or written
   * @throws IllegalStateException when called from inside another transaction or after close
   */
  public <T> T write(SqlWork<T> work) {
    return inTransaction(Mode.WRITE, "write transaction", work);
  }

  private <T> T inTransaction(Mode mode, String action, SqlWork<T> work) {
    Objects.requireNonNull(work, "work");
    if (lock.isHeldByCurrentThread()) {
      throw new IllegalStateException("transactions do not nest: this thread is already in one");
    }
    lock.lock();
    try {
      return Transaction.run(connection(), mode, action, work);
    } finally {
      lock.unlock();
    }
  }

  private Connection connection() {
    if (closed) {
      throw new IllegalStateException("the database is closed");
    }
    if (connection == null) {
      Connection opened = file.open(busyTimeout);
      try {
        migrator.migrate(opened);
        file.restrictSidecars();
      } catch (RuntimeException e) {
        DatabaseFile.closeAfterFailure(opened, e);
        throw e;
      }
      connection = opened;
    }
    return connection;
  }

  /** Closes the connection, if one was opened. Later calls to read or write fail. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      if (connection != null) {
        Connection open = connection;
        connection = null;
        open.close();
      }
    } catch (SQLException e) {
      throw StorageException.translate("closing the database", e);
    } finally {
      lock.unlock();
    }
  }
}
