package dev.cortex.storage;

import dev.cortex.base.CortexHome;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.sqlite.SQLiteConfig;

/**
 * The SQLite file on disk: creates it owner-only before SQLite first opens it, opens connections
 * with Cortex's pragmas, and keeps the {@code -wal} and {@code -shm} sidecars owner-only.
 */
record DatabaseFile(Path path, Synchronous synchronous) {
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");
  private static final String[] SIDECARS = {"-wal", "-shm"};

  /** Creates the directory and file if needed and opens a configured connection. */
  Connection open(Duration busyTimeout) {
    createOwnerOnly();
    Connection connection = connect(busyTimeout);
    try {
      configure(connection);
    } catch (SQLException e) {
      closeAfterFailure(connection, e);
      throw StorageException.translate("opening the database " + path, e);
    }
    return connection;
  }

  /**
   * Sets the sidecars SQLite created to owner-only. SQLite already gives them the database file's
   * mode; this covers files left by older versions or other tools.
   */
  void restrictSidecars() {
    if (!posix()) {
      return;
    }
    for (String suffix : SIDECARS) {
      Path sidecar = path.resolveSibling(path.getFileName() + suffix);
      try {
        if (!Files.getPosixFilePermissions(sidecar).equals(OWNER_FILE)) {
          Files.setPosixFilePermissions(sidecar, OWNER_FILE);
        }
      } catch (NoSuchFileException absent) {
        // Not created yet, or removed when another process closed the last connection.
      } catch (IOException e) {
        throw new StorageException("cannot restrict the permissions of " + sidecar, e);
      }
    }
  }

  private void createOwnerOnly() {
    Path dir = CortexHome.ensureDirectory(path.toAbsolutePath().getParent());
    try {
      if (posix()) {
        Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_FILE));
      } else {
        Files.createFile(path);
      }
    } catch (FileAlreadyExistsException exists) {
      // Created earlier, or by another process just now: either way SQLite opens it as it is.
    } catch (IOException e) {
      throw new StorageException("cannot create the database file in " + dir, e);
    }
  }

  private Connection connect(Duration busyTimeout) {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
    try {
      return config.createConnection("jdbc:sqlite:" + path);
    } catch (SQLException e) {
      throw StorageException.translate("opening the database " + path, e);
    }
  }

  /**
   * WAL lets readers and one writer work at once across processes. {@code synchronous=NORMAL} in
   * WAL mode keeps the database consistent and every committed transaction durable across a crash
   * of the process; only a power loss or OS crash can lose the last commits. {@code FULL} syncs
   * every commit to disk.
   */
  private void configure(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      try (ResultSet mode = statement.executeQuery("PRAGMA journal_mode = WAL")) {
        String actual = mode.next() ? mode.getString(1) : "unknown";
        if (!"wal".equalsIgnoreCase(actual)) {
          throw new SQLException("the database refused WAL journal mode (got " + actual + ")");
        }
      }
      statement.execute("PRAGMA foreign_keys = ON");
      statement.execute("PRAGMA synchronous = " + synchronous.name());
    }
  }

  static void closeAfterFailure(Connection connection, Throwable failure) {
    try {
      connection.close();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  private boolean posix() {
    Path dir = path.toAbsolutePath().getParent();
    return Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null;
  }
}
