package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.storage.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The subagents area on a real database, migrated from empty with every area of the server. */
class SubagentStoreTest {
  private static final Instant AT = Instant.parse("2026-12-02T10:00:00Z");

  @TempDir Path dir;
  Database database;

  @BeforeEach
  void open() {
    database = new Database(dir, Daemon.storageAreas(), Clock.systemUTC());
  }

  @AfterEach
  void close() {
    database.close();
  }

  private static SubagentStore.Row row(String id, String call, int position, boolean background) {
    return new SubagentStore.Row(
        id,
        call,
        position,
        "parallel",
        "ses-parent",
        "ex-1",
        "ses-child-" + id,
        "item " + position,
        "general-purpose",
        "command",
        null,
        SubagentStore.RUNNING,
        background,
        null,
        null,
        0,
        AT.plusSeconds(position),
        null,
        null);
  }

  private void insert(SubagentStore.Row... rows) {
    database.write(
        c -> {
          for (SubagentStore.Row r : rows) {
            SubagentStore.insert(c, r);
          }
          return null;
        });
  }

  private boolean finish(String id, String status) {
    return database.write(
        c -> SubagentStore.finish(c, id, status, "out " + id, null, 0.5, AT.plusSeconds(60)));
  }

  @Test
  void finish_firstEndStands_aLaterOneChangesNothing() {
    insert(row("sa-000000000001", "call-a", 0, false));

    assertThat(finish("sa-000000000001", SubagentStore.STOPPED)).isTrue();
    assertThat(finish("sa-000000000001", SubagentStore.COMPLETED)).isFalse();

    SubagentStore.Row kept = database.read(c -> SubagentStore.get(c, "sa-000000000001"));
    assertThat(kept.status()).isEqualTo(SubagentStore.STOPPED);
    assertThat(kept.costUsd()).isEqualTo(0.5);
    assertThat(kept.endedAt()).isEqualTo(AT.plusSeconds(60));
  }

  @Test
  void undeliveredCalls_onlyBackgroundCallsWhoseSubagentsAllEnded_untilDelivered() {
    insert(
        row("sa-000000000001", "call-a", 0, true),
        row("sa-000000000002", "call-a", 1, true),
        row("sa-000000000003", "call-b", 0, false));
    finish("sa-000000000001", SubagentStore.COMPLETED);
    finish("sa-000000000003", SubagentStore.COMPLETED);

    assertThat(undelivered()).isEmpty();
    finish("sa-000000000002", SubagentStore.FAILED);
    assertThat(undelivered()).containsExactly("call-a");

    database.write(
        c -> {
          SubagentStore.delivered(c, "call-a", AT.plusSeconds(61));
          return null;
        });
    assertThat(undelivered()).isEmpty();
    // A foreground call moved to the background later is delivered as well.
    database.write(
        c -> {
          SubagentStore.background(c, "call-b");
          return null;
        });
    assertThat(undelivered()).containsExactly("call-b");
  }

  private List<String> undelivered() {
    return database.read(SubagentStore::undeliveredCalls);
  }

  @Test
  void list_ofAParent_isInCallAndItemOrder_andRunningOnesAreFound() {
    insert(row("sa-000000000002", "call-a", 1, false), row("sa-000000000001", "call-a", 0, false));

    List<SubagentStore.Row> listed = database.read(c -> SubagentStore.list(c, "ses-parent", 10));

    assertThat(listed)
        .extracting(SubagentStore.Row::id)
        .containsExactly("sa-000000000001", "sa-000000000002");
    List<SubagentStore.Row> running = database.read(SubagentStore::running);
    assertThat(running).hasSize(2);
    List<SubagentStore.Row> others = database.read(c -> SubagentStore.list(c, "ses-other", 10));
    assertThat(others).isEmpty();
    assertThat(listed.get(0).view().position()).isZero();
  }

  @Test
  void prune_removesEndedRecordsOwingNothing_keepsRunningAndUndelivered() {
    insert(
        row("sa-000000000011", "call-f", 0, false),
        row("sa-000000000012", "call-b", 0, true),
        row("sa-000000000013", "call-d", 0, true),
        row("sa-000000000014", "call-r", 0, false));
    finish("sa-000000000011", SubagentStore.COMPLETED);
    finish("sa-000000000012", SubagentStore.COMPLETED);
    finish("sa-000000000013", SubagentStore.FAILED);
    database.write(
        c -> {
          SubagentStore.delivered(c, "call-d", AT.plusSeconds(61));
          return null;
        });

    int early = database.write(c -> SubagentStore.prune(c, AT.plusSeconds(60)));
    int late = database.write(c -> SubagentStore.prune(c, AT.plusSeconds(3600)));
    assertThat(early).isZero();
    assertThat(late).isEqualTo(2);

    assertThat(stored("sa-000000000011")).isNull();
    assertThat(stored("sa-000000000013")).isNull();
    assertThat(stored("sa-000000000012")).as("a background result not delivered yet").isNotNull();
    assertThat(stored("sa-000000000014")).as("still running").isNotNull();
  }

  private SubagentStore.Row stored(String id) {
    return database.read(c -> SubagentStore.get(c, id));
  }
}
