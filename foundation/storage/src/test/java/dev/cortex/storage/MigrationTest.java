package dev.cortex.storage;

import static dev.cortex.storage.TestAreas.applied;
import static dev.cortex.storage.TestAreas.count;
import static dev.cortex.storage.TestAreas.hasTable;
import static dev.cortex.storage.TestAreas.insertNote;
import static dev.cortex.storage.TestAreas.notes;
import static dev.cortex.storage.TestAreas.single;
import static dev.cortex.storage.TestAreas.tags;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MigrationTest {
  static final Clock FIRST = Clock.fixed(Instant.parse("2025-01-02T03:04:05Z"), ZoneOffset.UTC);
  static final Clock LATER = Clock.fixed(Instant.parse("2025-06-07T08:09:10Z"), ZoneOffset.UTC);

  @TempDir Path dataDir;

  @Test
  void migrate_fromEmpty_appliesEveryVersionWithTheClocksTime() {
    try (Database db = new Database(dataDir, List.of(notes(3)), FIRST)) {
      assertThat(applied(db))
          .containsExactly(
              "notes:1@2025-01-02T03:04:05Z",
              "notes:2@2025-01-02T03:04:05Z",
              "notes:3@2025-01-02T03:04:05Z");
      assertThat(hasTable(db, "note_tags")).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void migrate_fromEarlierVersion_appliesTheRestAndKeepsData(int earlier) {
    try (Database old = new Database(dataDir, List.of(notes(earlier)), FIRST)) {
      old.write(
          c -> {
            insertNote(c, "kept");
            return null;
          });
    }

    try (Database db = new Database(dataDir, List.of(notes(3)), LATER)) {
      assertThat(applied(db)).hasSize(3);
      assertThat(applied(db).get(earlier - 1)).endsWith("@2025-01-02T03:04:05Z");
      assertThat(applied(db).get(earlier)).endsWith("@2025-06-07T08:09:10Z");
      assertThat(single(db, "SELECT COUNT(*) FROM notes WHERE body = 'kept'")).isEqualTo(1);
      assertThat(hasTable(db, "note_tags")).isTrue();
    }
  }

  @Test
  void migrate_upToDate_appliesNothing() {
    try (Database first = new Database(dataDir, List.of(notes(3)), FIRST)) {
      count(first, "notes");
    }

    try (Database db = new Database(dataDir, List.of(notes(3)), LATER)) {
      assertThat(applied(db)).allMatch(row -> row.endsWith("@2025-01-02T03:04:05Z"));
    }
  }

  @Test
  void migrate_twoAreas_areVersionedIndependently() {
    try (Database db = new Database(dataDir, List.of(notes(1), tags()), FIRST)) {
      assertThat(applied(db))
          .containsExactly("notes:1@" + FIRST.instant(), "tags:1@" + FIRST.instant());
    }
    try (Database db = new Database(dataDir, List.of(notes(3)), LATER)) {
      assertThat(applied(db))
          .containsExactly(
              "notes:1@" + FIRST.instant(),
              "notes:2@" + LATER.instant(),
              "notes:3@" + LATER.instant(),
              "tags:1@" + FIRST.instant());
    }
  }

  @Test
  void migrate_newerDatabase_isRefusedWithoutModification() throws Exception {
    try (Database newer = new Database(dataDir, List.of(notes(3)), FIRST)) {
      count(newer, "notes");
    }
    Path file = dataDir.resolve(Database.FILE_NAME);
    byte[] before = Files.readAllBytes(file);

    try (Database older = new Database(dataDir, List.of(tags(), notes(1)), LATER)) {
      assertThatThrownBy(() -> count(older, "notes"))
          .isExactlyInstanceOf(StorageException.class)
          .hasMessageContaining("was written by a newer Cortex")
          .hasMessageContaining("area 'notes' is at version 3")
          .hasMessageContaining("knows versions up to 1");
    }

    assertThat(Files.readAllBytes(file)).isEqualTo(before);
    try (Database newer = new Database(dataDir, List.of(notes(3)), FIRST)) {
      assertThat(applied(newer)).hasSize(3);
      assertThat(hasTable(newer, "tags")).isFalse();
    }
  }

  @Test
  void migrate_failingStep_rollsBackThatVersionAndRetriesOnNextUse() {
    AtomicBoolean failNext = new AtomicBoolean(true);
    Migration flaky =
        new Migration(
            2,
            c -> {
              try (Statement statement = c.createStatement()) {
                statement.execute("CREATE TABLE drafts (id INTEGER PRIMARY KEY)");
              }
              if (failNext.getAndSet(false)) {
                throw new IllegalStateException("flaky migration");
              }
            });
    Area area = new Area("notes", List.of(TestAreas.NOTES.get(0), flaky));

    try (Database db = new Database(dataDir, List.of(area), FIRST)) {
      assertThatThrownBy(() -> count(db, "notes")).hasMessage("flaky migration");
      try (Database peek = new Database(dataDir, List.of(notes(1)), FIRST)) {
        assertThat(applied(peek)).containsExactly("notes:1@" + FIRST.instant());
        assertThat(hasTable(peek, "drafts")).isFalse();
      }

      assertThat(count(db, "drafts")).isZero();
      assertThat(applied(db)).hasSize(2);
    }
  }

  @Test
  void area_withVersionsOutOfOrder_isRejected() {
    assertThatThrownBy(() -> Area.of("notes", Migration.sql(2, "x"), Migration.sql(1, "y")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version 1 after version 2");
    assertThatThrownBy(() -> Area.of("notes", Migration.sql(1, "x"), Migration.sql(1, "y")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void area_badNameOrNoMigrations_isRejected() {
    assertThatThrownBy(() -> Area.of("Notes", Migration.sql(1, "x")))
        .hasMessageContaining("[a-z][a-z0-9_]*");
    assertThatThrownBy(() -> Area.of("notes")).hasMessageContaining("no migrations");
    assertThatThrownBy(() -> Migration.sql(0, "x")).hasMessageContaining("positive");
  }

  @Test
  void database_withAreaRegisteredTwice_isRejected() {
    assertThatThrownBy(() -> new Database(dataDir, List.of(notes(1), notes(2)), FIRST))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'notes' is registered twice");
  }
}
