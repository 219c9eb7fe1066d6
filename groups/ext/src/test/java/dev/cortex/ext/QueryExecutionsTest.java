package dev.cortex.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** query_executions over executions the session store recorded. */
class QueryExecutionsTest {
  static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  @TempDir Path dir;
  MovableClock clock = new MovableClock(START);
  Database database;
  Executions executions;
  Session api;
  Session web;
  ExtTools tools;

  @BeforeEach
  void open() {
    database = new Database(dir.resolve("data"), List.of(SessionsSchema.area()), Clock.systemUTC());
    SessionStore store = new SessionStore(() -> database, clock);
    executions = new Executions(() -> database, clock);
    api = store.create(session("ses-1", "api"));
    web = store.create(session("ses-2", "web"));
    tools = new ExtTools(ExtTools.home(dir), database, clock, Map.of());
  }

  @AfterEach
  void close() {
    database.close();
  }

  static Session session(String id, String project) {
    return new Session(
        id,
        id,
        "cli:" + id,
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
        START,
        START);
  }

  /** A turn of {@code session} a minute after the last, ended as {@code status} (or running). */
  String turn(Session session, Execution.Status status) {
    clock.advance(Duration.ofMinutes(1));
    String id = executions.start("turn", session);
    if (status == Execution.Status.COMPLETED) {
      executions.finish(id, status, "done", null, 0.25, 2);
    } else if (status != Execution.Status.RUNNING) {
      executions.finish(id, status, null, "it broke", 0.1, 1);
    }
    return id;
  }

  static List<String> ids(ToolOutcome outcome) {
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    List<String> ids = new ArrayList<>();
    for (JsonNode execution : outcome.body().path("executions")) {
      ids.add(execution.path("id").asString());
    }
    assertThat(outcome.body().path("count").asInt()).isEqualTo(ids.size());
    return ids;
  }

  @Test
  void handle_noArguments_listsEveryRecordNewestFirst() {
    String first = turn(api, Execution.Status.COMPLETED);
    String second = turn(web, Execution.Status.FAILED);
    String third = turn(api, Execution.Status.RUNNING);

    assertThat(ids(tools.call(QueryExecutions.NAME, "{}"))).containsExactly(third, second, first);
  }

  @Test
  void handle_anExecutionId_showsThatRecordWhole() {
    String id = turn(api, Execution.Status.COMPLETED);
    turn(api, Execution.Status.FAILED);

    ToolOutcome outcome = tools.call(QueryExecutions.NAME, "{\"execution_id\": \"" + id + "\"}");

    assertThat(ids(outcome)).containsExactly(id);
    JsonNode record = outcome.body().path("executions").get(0);
    assertThat(record.path("kind").asString()).isEqualTo("turn");
    assertThat(record.path("status").asString()).isEqualTo("completed");
    assertThat(record.path("project").asString()).isEqualTo("api");
    assertThat(record.path("session_id").asString()).isEqualTo("ses-1");
    assertThat(record.path("started_at").asString()).isEqualTo(START.plusSeconds(60).toString());
    assertThat(record.path("ended_at").asString()).isEqualTo(START.plusSeconds(60).toString());
    assertThat(record.path("cost_usd").asDouble()).isEqualTo(0.25);
    assertThat(record.path("turns").asInt()).isEqualTo(2);
    assertThat(record.path("output").asString()).isEqualTo("done");
    assertThat(record.path("error").isNull()).isTrue();
  }

  @Test
  void handle_anUnknownExecutionId_isAnInvalidReference() {
    ToolOutcome outcome = tools.call(QueryExecutions.NAME, "{\"execution_id\": \"ex-nope\"}");

    assertThat(ExtTools.code(outcome)).isEqualTo("INVALID_REFERENCE");
    assertThat(outcome.body().path("error").path("message").asString()).contains("ex-nope");
  }

  @Test
  void handle_statusAndProject_filterTheRecords() {
    String apiDone = turn(api, Execution.Status.COMPLETED);
    String webDone = turn(web, Execution.Status.COMPLETED);
    String apiFailed = turn(api, Execution.Status.FAILED);

    assertThat(ids(tools.call(QueryExecutions.NAME, "{\"status\": \"completed\"}")))
        .containsExactly(webDone, apiDone);
    assertThat(ids(tools.call(QueryExecutions.NAME, "{\"project\": \"api\"}")))
        .containsExactly(apiFailed, apiDone);
    assertThat(
            ids(tools.call(QueryExecutions.NAME, "{\"status\": \"failed\", \"project\": \"web\"}")))
        .isEmpty();
    assertThat(ids(tools.call(QueryExecutions.NAME, "{\"status\": \"all\"}"))).hasSize(3);
  }

  @Test
  void handle_aLimit_keepsTheNewest() {
    for (int i = 0; i < 25; i++) {
      turn(api, Execution.Status.COMPLETED);
    }
    String newest = turn(api, Execution.Status.COMPLETED);

    assertThat(ids(tools.call(QueryExecutions.NAME, "{}"))).hasSize(20).first().isEqualTo(newest);
    assertThat(ids(tools.call(QueryExecutions.NAME, "{\"limit\": 3}"))).hasSize(3);
  }

  @Test
  void handle_anUnknownStatusOrALimitOutOfRange_isInvalidArgument() {
    for (String arguments :
        List.of("{\"status\": \"sleeping\"}", "{\"limit\": 0}", "{\"limit\": 101}")) {
      assertThat(ExtTools.code(tools.call(QueryExecutions.NAME, arguments)))
          .as(arguments)
          .isEqualTo("INVALID_ARGUMENT");
    }
  }
}
