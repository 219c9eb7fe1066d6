package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoresTest {
  @TempDir Path dir;
  Database database;
  Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
  SessionStore store;
  Executions executions;
  Costs costs;
  Session session;

  @BeforeEach
  void open() {
    database = new Database(dir, List.of(SessionsSchema.area()), Clock.systemUTC());
    store = new SessionStore(() -> database, clock);
    executions = new Executions(() -> database, clock);
    costs = new Costs(() -> database, clock);
    session = store.create(session("ses-1", "s1", "cli:s1", "api"));
  }

  @AfterEach
  void close() {
    database.close();
  }

  static Session session(String id, String name, String channel, String project) {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    return new Session(
        id,
        name,
        channel,
        project,
        "command",
        null,
        null,
        null,
        "default",
        Session.Composition.DIRECT,
        Session.StartedBy.PERSON,
        null,
        List.of("agent"),
        Path.of("/"),
        Session.State.IDLE,
        null,
        now,
        now);
  }

  @Test
  void inbox_deliversEachMessageOnce_onlyToTheTurnItWasOfferedTo_intoTheTranscriptInOrder() {
    Inbox inbox = store.inbox();
    inbox.enqueue("ses-1", "first", "person");
    inbox.enqueue("ses-1", "second", "person");
    List<Long> offered = inbox.offer("ses-1", List.of(1L, 2L), "ex-1");

    List<Inbox.Delivered> elsewhere = inbox.deliver("ses-1", offered, "ex-2");
    List<Inbox.Delivered> delivered = inbox.deliver("ses-1", offered, "ex-1");
    List<Inbox.Delivered> again = inbox.deliver("ses-1", offered, "ex-1");

    assertThat(offered).containsExactly(1L, 2L);
    assertThat(elsewhere).as("offered to another turn").isEmpty();
    assertThat(delivered).extracting(Inbox.Delivered::seq).containsExactly(1L, 2L);
    assertThat(delivered).extracting(d -> d.entry().seq()).containsExactly(1L, 2L);
    assertThat(again).as("already delivered").isEmpty();
    assertThat(inbox.queued("ses-1")).isEmpty();
    assertThat(inbox.state("ses-1", 2)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(store.transcript("ses-1", 0, 10))
        .extracting(Transcript.Entry::executionId)
        .containsExactly("ex-1", "ex-1");
    assertThat(inbox.withQueued()).isEmpty();
  }

  @Test
  void inbox_offeredAndNotAcknowledged_goBackToTheHeadOfTheQueue_inOrder_withoutAnEntry() {
    Inbox inbox = store.inbox();
    for (String text : List.of("a", "b", "c", "d")) {
      inbox.enqueue("ses-1", text, "person");
    }
    inbox.offer("ses-1", List.of(1L, 2L, 3L), "ex-1");
    inbox.deliver("ses-1", List.of(2L), "ex-1");

    assertThat(inbox.offer("ses-1", List.of(1L), "ex-2")).as("offered already").isEmpty();
    assertThat(inbox.requeue("ses-1", "ex-1")).containsExactly(1L, 3L);
    assertThat(inbox.queued("ses-1"))
        .extracting(Inbox.Message::text)
        .containsExactly("a", "c", "d");
    assertThat(inbox.withQueued()).containsExactly("ses-1");
    assertThat(store.transcript("ses-1", 0, 10))
        .extracting(e -> e.body())
        .containsExactly("{\"text\":\"b\",\"source\":\"person\"}");

    inbox.offer("ses-1", List.of(1L, 3L, 4L), "ex-2");
    inbox.requeue("ses-1", 4L, "ex-2");
    assertThat(inbox.state("ses-1", 4)).isEqualTo(Inbox.State.QUEUED);
    assertThat(inbox.requeueOffered()).as("after a crash, the offered ones").isEqualTo(2);
    assertThat(inbox.queued("ses-1")).extracting(Inbox.Message::seq).containsExactly(1L, 3L, 4L);
  }

  @Test
  void inbox_aKeyAlreadySent_isNotQueuedAgain_whateverBecameOfIt() {
    Inbox inbox = store.inbox();
    Inbox.Enqueued first = inbox.enqueue("ses-1", "wake", "waitpoint", "wp-1:1");
    inbox.offer("ses-1", List.of(first.seq()), "ex-1");

    Inbox.Enqueued again = inbox.enqueue("ses-1", "wake", "waitpoint", "wp-1:1");

    assertThat(again).isEqualTo(new Inbox.Enqueued(first.seq(), false, "ses-1"));
    assertThat(inbox.requeue("ses-1", "ex-1")).containsExactly(first.seq());
    assertThat(inbox.queued("ses-1")).hasSize(1);
  }

  @Test
  void inbox_aKeyOfAnotherSession_isNotQueued_andSaysWhoseItIs() {
    store.create(session("ses-2", "s2", "cli:s2", "api"));
    Inbox inbox = store.inbox();
    inbox.enqueue("ses-2", "wake", "waitpoint", "wp-1:1");

    Inbox.Enqueued again = inbox.enqueue("ses-1", "wake", "waitpoint", "wp-1:1");

    assertThat(again).isEqualTo(new Inbox.Enqueued(1, false, "ses-2"));
    assertThat(inbox.queued("ses-1")).isEmpty();
  }

  /** A database of version 2 (no states): delivered messages stay delivered, the rest queued. */
  @Test
  void schema_fromVersion2_givesEachMessageItsState(@TempDir Path older) {
    Area version2 = new Area("sessions", SessionsSchema.area().migrations().subList(0, 2));
    Database before = new Database(older, List.of(version2), Clock.systemUTC());
    try {
      before.write(
          c -> {
            Sql.update(
                c,
                "INSERT INTO sessions (id, name, channel, backend, mode, composition, started_by,"
                    + " working_dir, state, created_at, updated_at) VALUES ('ses-1', 's1', 'cli:s1',"
                    + " 'command', 'default', 'direct', 'person', '/', 'idle',"
                    + " '2026-12-01T10:00:00Z', '2026-12-01T10:00:00Z')");
            Sql.update(
                c,
                "INSERT INTO session_inbox (session_id, seq, text, source, at, delivered_to)"
                    + " VALUES ('ses-1', 1, 'taken', 'person', '2026-12-01T10:00:00Z', 'ex-1'),"
                    + " ('ses-1', 2, 'waiting', 'person', '2026-12-01T10:00:00Z', NULL)");
            return null;
          });
    } finally {
      before.close();
    }

    Database after = new Database(older, List.of(SessionsSchema.area()), Clock.systemUTC());
    try {
      Inbox inbox = new SessionStore(() -> after, clock).inbox();
      assertThat(inbox.state("ses-1", 1)).isEqualTo(Inbox.State.DELIVERED);
      assertThat(inbox.state("ses-1", 2)).isEqualTo(Inbox.State.QUEUED);
      assertThat(inbox.queued("ses-1")).extracting(Inbox.Message::text).containsExactly("waiting");
    } finally {
      after.close();
    }
  }

  @Test
  void transcript_pagesAfterASequenceNumber() {
    for (int i = 0; i < 5; i++) {
      store.append("ses-1", "ex-1", Transcript.Kind.ASSISTANT, "{\"text\":\"" + i + "\"}");
    }

    assertThat(store.transcript("ses-1", 2, 2))
        .extracting(Transcript.Entry::seq)
        .containsExactly(3L, 4L);
    assertThat(store.transcript("ses-1", 5, 10)).isEmpty();
  }

  @Test
  void executions_terminalRecordsAreNeverRewritten() {
    String id = executions.start("turn", session);

    assertThat(executions.finish(id, Execution.Status.COMPLETED, "done", null, 0.5, 1)).isTrue();
    assertThat(executions.finish(id, Execution.Status.FAILED, null, "late", 0, 0)).isFalse();
    Execution record = executions.get(id);
    assertThat(record.status()).isEqualTo(Execution.Status.COMPLETED);
    assertThat(record.output()).isEqualTo("done");
    assertThat(record.costUsd()).isEqualTo(0.5);
  }

  @Test
  void executions_ofADeadOwner_areFoundAndMarkedStale() throws Exception {
    String id = executions.start("turn", session);
    long dead = deadPid();
    database.write(
        c -> {
          try (var statement =
              c.prepareStatement("UPDATE executions SET owner_pid = ? WHERE id = ?")) {
            statement.setLong(1, dead);
            statement.setString(2, id);
            return statement.executeUpdate();
          }
        });

    List<Execution> found =
        executions.query(new Executions.Query(null, Execution.Status.STALE, null, 10));

    assertThat(found).extracting(Execution::id).containsExactly(id);
    assertThat(found.get(0).error()).contains("process ended");
  }

  static long deadPid() throws Exception {
    Process process = new ProcessBuilder("true").start();
    process.waitFor();
    return process.pid();
  }

  @Test
  void costs_sumByPeriodProjectModeAndSource() {
    costs.record(entry("2026-12-01T09:00:00Z", "api", "api", "turn", 1.0));
    costs.record(entry("2026-12-01T11:00:00Z", "web", "plan", "turn", 2.0));
    costs.record(entry("2026-11-30T23:00:00Z", "api", "api", "subagent", 4.0));

    Costs.Totals today =
        costs.between(
            Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2026-12-02T00:00:00Z"), null);
    Costs.Totals api =
        costs.between(
            Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-12-02T00:00:00Z"), "api");

    assertThat(today.usd()).isEqualTo(3.0);
    assertThat(today.apiUsd()).isEqualTo(1.0);
    assertThat(today.planUsd()).isEqualTo(2.0);
    assertThat(today.inputTokens()).isEqualTo(20);
    assertThat(api.usd()).isEqualTo(5.0);
    assertThat(api.bySource()).containsEntry("turn", 1.0).containsEntry("subagent", 4.0);
  }

  static Costs.Entry entry(String at, String project, String mode, String source, double usd) {
    return new Costs.Entry(
        Instant.parse(at), "ex", "ses-1", project, source, "m", mode, 10, 5, 1, 2, usd);
  }
}
