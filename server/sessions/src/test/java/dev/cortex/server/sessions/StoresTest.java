package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
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
  void inbox_deliversEachMessageOnce_intoTheTranscriptInOrder() {
    store.enqueue("ses-1", "first", "person");
    store.enqueue("ses-1", "second", "person");
    List<SessionStore.Pending> pending = store.pending("ses-1");

    List<Transcript.Entry> delivered = store.deliver("ses-1", pending, "ex-1");
    List<Transcript.Entry> again = store.deliver("ses-1", pending, "ex-2");

    assertThat(delivered).extracting(Transcript.Entry::seq).containsExactly(1L, 2L);
    assertThat(again).as("already delivered").isEmpty();
    assertThat(store.pending("ses-1")).isEmpty();
    assertThat(store.transcript("ses-1", 0, 10))
        .extracting(Transcript.Entry::executionId)
        .containsExactly("ex-1", "ex-1");
    assertThat(store.withPending()).isEmpty();
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
