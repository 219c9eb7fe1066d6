package dev.cortex.storage;

import static dev.cortex.storage.TestAreas.count;
import static dev.cortex.storage.TestAreas.insertNote;
import static dev.cortex.storage.TestAreas.notes;
import static dev.cortex.storage.TestAreas.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);

  @TempDir Path temp;
  Path dataDir;
  Database db;

  @BeforeEach
  void setUp() {
    dataDir = temp.resolve("home").resolve("data");
    db = new Database(dataDir, List.of(notes(3)), CLOCK);
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  @Test
  void constructor_touchesNothing() {
    assertThat(temp.resolve("home")).doesNotExist();
    assertThat(db.path()).isEqualTo(dataDir.resolve("cortex.sqlite3"));
  }

  @Test
  void close_beforeFirstUse_createsNothing() {
    db.close();

    assertThat(temp.resolve("home")).doesNotExist();
    assertThatThrownBy(() -> db.read(c -> 1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void firstRead_createsOwnerOnlyDirectoriesAndFile() throws Exception {
    assertThat(count(db, "notes")).isZero();

    assertThat(db.path()).isRegularFile();
    assertThat(permissions(temp.resolve("home"))).isEqualTo("rwx------");
    assertThat(permissions(dataDir)).isEqualTo("rwx------");
    assertThat(permissions(db.path())).isEqualTo("rw-------");
  }

  @Test
  void firstWrite_leavesOwnerOnlySidecars() throws Exception {
    db.write(c -> insertNoteReturning(c, "hello"));

    assertThat(permissions(sidecar("-wal"))).isEqualTo("rw-------");
    assertThat(permissions(sidecar("-shm"))).isEqualTo("rw-------");
  }

  @Test
  void open_restrictsLooseSidecarsThatAnotherConnectionKeepsOpen() throws Exception {
    db.write(c -> insertNoteReturning(c, "hello"));
    db.close();
    try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db.path())) {
      update(other, "INSERT INTO notes (body) VALUES ('from another tool')");
      for (String suffix : List.of("-wal", "-shm")) {
        Files.setPosixFilePermissions(
            sidecar(suffix), PosixFilePermissions.fromString("rw-r--r--"));
      }

      try (Database reopened = new Database(dataDir, List.of(notes(3)), CLOCK)) {
        assertThat(count(reopened, "notes")).isEqualTo(2);
        assertThat(permissions(sidecar("-wal"))).isEqualTo("rw-------");
        assertThat(permissions(sidecar("-shm"))).isEqualTo("rw-------");
      }
    }
  }

  @Test
  void open_setsWalForeignKeysAndBusyTimeout() throws Exception {
    String journal = db.read(c -> text(c, "PRAGMA journal_mode"));
    assertThat(journal).isEqualTo("wal");
    assertThat(single(db, "PRAGMA foreign_keys")).isEqualTo(1);
    assertThat(single(db, "PRAGMA busy_timeout")).isEqualTo(10_000);
    db.close();

    try (Connection raw = DriverManager.getConnection("jdbc:sqlite:" + db.path())) {
      assertThat(text(raw, "PRAGMA journal_mode")).isEqualTo("wal");
    }
  }

  @Test
  void open_synchronousIsNormalUnlessFullIsAsked() throws Exception {
    assertThat(single(db, "PRAGMA synchronous")).as("NORMAL").isEqualTo(1);

    Path other = temp.resolve("full");
    try (Database full =
        new Database(
            other, List.of(notes(3)), CLOCK, Database.DEFAULT_BUSY_TIMEOUT, Synchronous.FULL)) {
      assertThat(single(full, "PRAGMA synchronous")).as("FULL").isEqualTo(2);
    }
  }

  @Test
  void synchronous_fromTheEnvironment_isParsedOrNamesTheVariable() {
    assertThat(Synchronous.fromEnvironment(java.util.Map.of())).isEmpty();
    assertThat(Synchronous.fromEnvironment(java.util.Map.of(Synchronous.VARIABLE, "full")))
        .contains(Synchronous.FULL);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Synchronous.fromEnvironment(java.util.Map.of(Synchronous.VARIABLE, "always")))
        .hasMessageContaining(Synchronous.VARIABLE)
        .hasMessageContaining("NORMAL or FULL");
  }

  @Test
  void write_commitsAndReturnsTheResult() {
    long id = db.write(c -> insertNoteReturning(c, "hello"));

    assertThat(id).isEqualTo(1);
    assertThat(count(db, "notes")).isEqualTo(1);
  }

  @Test
  void write_runtimeExceptionFromWork_rollsBackAndPassesThroughUnchanged() {
    IllegalStateException domain = new IllegalStateException("coded domain error");

    assertThatThrownBy(
            () ->
                db.write(
                    c -> {
                      insertNote(c, "half-written");
                      throw domain;
                    }))
        .isSameAs(domain);
    assertThat(count(db, "notes")).isZero();
  }

  @Test
  void write_sqlExceptionFromWork_rollsBackAsStorageException() {
    assertThatThrownBy(
            () ->
                db.write(
                    c -> {
                      insertNote(c, "half-written");
                      return single(c, "SELECT * FROM no_such_table");
                    }))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessageContaining("write transaction failed")
        .hasMessageContaining("no_such_table")
        .hasCauseInstanceOf(SQLException.class);
    assertThat(count(db, "notes")).isZero();
  }

  @Test
  void write_violatingForeignKey_fails() {
    assertThatThrownBy(
            () -> db.write(c -> update(c, "INSERT INTO note_tags (note_id, tag) VALUES (42, 'x')")))
        .isExactlyInstanceOf(StorageException.class)
        .hasMessageContaining("FOREIGN KEY");
  }

  @Test
  void read_thatWrites_failsAndLeavesLaterWritesWorking() {
    assertThatThrownBy(() -> db.read(c -> insertNoteReturning(c, "sneaky")))
        .isInstanceOf(StorageException.class);

    db.write(c -> insertNoteReturning(c, "fine"));
    assertThat(count(db, "notes")).isEqualTo(1);
  }

  @Test
  void write_nestedTransaction_isRefusedAndOuterRolledBack() {
    assertThatThrownBy(
            () ->
                db.write(
                    c -> {
                      insertNote(c, "outer");
                      return db.read(inner -> 1);
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("do not nest");
    assertThat(count(db, "notes")).isZero();
  }

  @Test
  void write_fromManyThreads_allCommit() throws Exception {
    int threads = 8;
    int perThread = 50;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        String name = "thread-" + t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perThread; i++) {
                    db.write(c -> insertNoteReturning(c, name));
                    db.read(c -> single(c, "SELECT COUNT(*) FROM notes"));
                  }
                }));
      }
      for (Future<?> future : done) {
        future.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(count(db, "notes")).isEqualTo(threads * perThread);
  }

  private Path sidecar(String suffix) {
    return db.path().resolveSibling(db.path().getFileName() + suffix);
  }

  static String permissions(Path path) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
  }

  static long insertNoteReturning(Connection c, String body) throws SQLException {
    insertNote(c, body);
    return single(c, "SELECT last_insert_rowid()");
  }

  static int update(Connection c, String sql) throws SQLException {
    try (Statement statement = c.createStatement()) {
      return statement.executeUpdate(sql);
    }
  }

  static String text(Connection c, String sql) throws SQLException {
    try (Statement statement = c.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getString(1);
    }
  }
}
