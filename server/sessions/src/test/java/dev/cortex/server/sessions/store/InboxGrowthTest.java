package dev.cortex.server.sessions.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import dev.cortex.testing.MovableClock;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the inbox keeps as it is used: its queries go through an index, a delivered message's text
 * is not kept twice (the transcript has it), and delivered rows are forgotten after a retention.
 */
class InboxGrowthTest {
  @TempDir Path dir;
  Database database;
  MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  SessionStore store;
  Inbox inbox;

  @BeforeEach
  void open() {
    database = new Database(dir, List.of(SessionsSchema.area()), Clock.systemUTC());
    store = new SessionStore(() -> database, clock);
    inbox = store.inbox();
    database.write(c -> Sql.update(c, SESSION));
  }

  static final String SESSION =
      "INSERT INTO sessions (id, name, channel, backend, mode, composition, started_by,"
          + " working_dir, state, created_at, updated_at) VALUES ('ses-1', 's1', 'cli:s1',"
          + " 'command', 'default', 'direct', 'person', '/', 'idle', '2026-12-01T10:00:00Z',"
          + " '2026-12-01T10:00:00Z')";

  @AfterEach
  void close() {
    database.close();
  }

  /** SQLite's plan of a query: one line a step. */
  List<String> plan(String sql) {
    return database.read(
        c -> {
          List<String> steps = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + sql);
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              steps.add(rs.getString("detail"));
            }
          }
          return steps;
        });
  }

  /** The sessions that have queued messages were found by reading all of an index of the inbox. */
  @Test
  void queries_bySessionStateAndSeq_searchAnIndex_andSortNothing() {
    for (String sql : List.of(Inbox.QUEUED, Inbox.OFFERED_TO, Inbox.WITH_QUEUED)) {
      assertThat(plan(sql))
          .as(sql)
          .isNotEmpty()
          .allSatisfy(
              step ->
                  assertThat(step)
                      .as("a search of an index, not a scan of the table or of a whole index")
                      .startsWith("SEARCH")
                      .contains("INDEX")
                      .doesNotContain("TEMP B-TREE"));
    }
  }

  /** The inbox kept every message's text after its delivery, beside the transcript's copy. */
  @Test
  void deliver_clearsTheMessagesText_whichTheTranscriptKeeps() {
    inbox.enqueue("ses-1", "secret plan", "person");
    inbox.offer("ses-1", List.of(1L), "ex-1");

    inbox.deliver("ses-1", List.of(1L), "ex-1");

    assertThat(text(1)).isEmpty();
    assertThat(store.transcript("ses-1", 0, 10))
        .singleElement()
        .satisfies(e -> assertThat(e.body()).contains("secret plan"));
  }

  /** Delivered messages were kept for ever. */
  @Test
  void prune_forgetsMessagesDeliveredBeforeTheCutOff_butTheSessionsLast_andNumbersGoOn() {
    for (String text : List.of("a", "b", "c")) {
      inbox.enqueue("ses-1", text, "person");
    }
    inbox.offer("ses-1", List.of(1L, 2L, 3L), "ex-1");
    inbox.deliver("ses-1", List.of(1L, 3L), "ex-1");
    clock.advance(Duration.ofDays(31));

    int pruned = inbox.prune(clock.instant().minus(Duration.ofDays(30)));

    assertThat(pruned).as("the first; the second is offered, the third the last").isEqualTo(1);
    assertThat(inbox.state("ses-1", 1)).isNull();
    assertThat(inbox.state("ses-1", 2)).isEqualTo(Inbox.State.OFFERED);
    assertThat(inbox.state("ses-1", 3)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(inbox.enqueue("ses-1", "d", "person")).isEqualTo(4);
    assertThat(inbox.prune(Instant.parse("2026-12-01T10:00:00Z")))
        .as("none delivered before")
        .isZero();
  }

  /** A database of version 3: the texts of delivered messages go, the others stay. */
  @Test
  void schema_fromVersion3_clearsDeliveredTexts(@TempDir Path older) {
    Area version3 = new Area("sessions", SessionsSchema.area().migrations().subList(0, 3));
    Database before = new Database(older, List.of(version3), Clock.systemUTC());
    try {
      before.write(
          c -> {
            Sql.update(c, SESSION);
            return Sql.update(
                c,
                "INSERT INTO session_inbox (session_id, seq, text, source, at, state,"
                    + " delivered_to) VALUES ('ses-1', 1, 'taken', 'person',"
                    + " '2026-12-01T10:00:00.000Z', 'delivered', 'ex-1'), ('ses-1', 2,"
                    + " 'waiting', 'person', '2026-12-01T10:00:00.000Z', 'queued', NULL)");
          });
    } finally {
      before.close();
    }
    database.close();
    database = new Database(older, List.of(SessionsSchema.area()), Clock.systemUTC());

    assertThat(text(1)).isEmpty();
    assertThat(text(2)).isEqualTo("waiting");
    assertThat(inbox.prune(Instant.parse("2026-12-02T00:00:00Z"))).isEqualTo(1);
  }

  private String text(long seq) {
    return database.read(
        c ->
            Sql.one(
                c,
                "SELECT text FROM session_inbox WHERE session_id = 'ses-1' AND seq = ?",
                rs -> rs.getString(1),
                seq));
  }
}
