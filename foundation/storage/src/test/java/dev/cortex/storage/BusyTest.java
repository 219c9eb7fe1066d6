package dev.cortex.storage;

import static dev.cortex.storage.TestAreas.count;
import static dev.cortex.storage.TestAreas.insertNote;
import static dev.cortex.storage.TestAreas.notes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Another connection holding SQLite's write lock, as a second {@code cortex} process would. */
class BusyTest {
  static final Duration SHORT = Duration.ofMillis(200);

  @TempDir Path dataDir;
  Database db;
  Connection otherWriter;

  @BeforeEach
  void setUp() throws SQLException {
    db = database();
    count(db, "notes");
    otherWriter = DriverManager.getConnection("jdbc:sqlite:" + db.path());
    try (Statement statement = otherWriter.createStatement()) {
      statement.execute("BEGIN IMMEDIATE");
      statement.executeUpdate("INSERT INTO notes (body) VALUES ('uncommitted')");
    }
  }

  @AfterEach
  void tearDown() throws SQLException {
    otherWriter.close();
    db.close();
  }

  @Test
  void write_whileAnotherWriterHoldsTheLock_failsAsBusyAndWritesNothing() throws Exception {
    assertThatThrownBy(() -> db.write(BusyTest::insertMine))
        .isInstanceOf(StorageBusyException.class)
        .hasMessageContaining("locked by another writer")
        .hasCauseInstanceOf(SQLException.class);

    try (Statement statement = otherWriter.createStatement()) {
      statement.execute("ROLLBACK");
    }
    assertThat(count(db, "notes")).isZero();
    db.write(BusyTest::insertMine);
    assertThat(count(db, "notes")).isEqualTo(1);
  }

  @Test
  void read_whileAnotherWriterHoldsTheLock_seesTheLastCommit() {
    assertThat(count(db, "notes")).isZero();
  }

  @Test
  void open_ofMigratedDatabase_whileAnotherWriterHoldsTheLock_needsNoWriteLock() {
    try (Database second = database()) {
      assertThat(count(second, "notes")).isZero();
    }
  }

  private Database database() {
    return new Database(dataDir, List.of(notes(3)), Clock.systemUTC(), SHORT);
  }

  private static Void insertMine(Connection c) throws SQLException {
    insertNote(c, "mine");
    return null;
  }
}
