package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.listed;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Team mode with the scripted agent as main session and workers: which sessions get which groups, a
 * worker spawned, sent to, listed and stopped, its reports reaching the main session as messages, a
 * routine turn kept as an unread update without waking the main session, and a worker's question
 * answered by the main session.
 */
class TeamIT {
  @TempDir static Path home;
  @TempDir static Path work;

  static SessionServer fixture;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        SessionServer.start(home, work, "[team]\nenabled = true\ncli = true\n", Map.of(), null);
    server = fixture.server;
    api = fixture.api;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  static String main(String name) throws Exception {
    return fixture.scripted(name, Map.of()).path("id").asString();
  }

  /** Runs one turn of {@code session} that calls {@code tool}; the tool's result. */
  static JsonNode tool(String session, String tool, Map<String, Object> arguments)
      throws Exception {
    SessionApi.Answer answer =
        api.follow(session, script(Map.of("calls", List.of(call(tool, arguments)))));
    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    List<JsonNode> results = ofKind(api.transcript(session), "tool_result");
    return results.get(results.size() - 1);
  }

  static JsonNode ok(JsonNode result) {
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    return content(result);
  }

  static JsonNode awaitUser(String session, String... parts) {
    return api.awaitEntry(
        session,
        e -> {
          if (!e.path("kind").asString().equals("user")) {
            return false;
          }
          String text = e.path("body").path("text").asString();
          for (String part : parts) {
            if (!text.contains(part)) {
              return false;
            }
          }
          return true;
        },
        String.join(" … ", parts));
  }

  @Test
  void groups_aMainSessionHasTheWorkerTools_andAWorkerHasMarkRoutineOnly() throws Exception {
    String lead = main("team-lister");
    api.follow(lead, script(Map.of("list_tools", true)));
    List<String> mainTools = listed(api.transcript(lead)).values().iterator().next();
    assertThat(mainTools)
        .contains("worker_spawn", "worker_send", "worker_list", "worker_stop", "worker_answer")
        .doesNotContain("mark_routine");

    JsonNode spawned =
        ok(
            tool(
                lead,
                "worker_spawn",
                Map.of("name", "lister", "prompt", script(Map.of("list_tools", true)))));
    String worker = spawned.path("worker").path("session_id").asString();
    api.awaitIdle(worker);
    assertThat(api.show(worker).path("started_by").asString()).isEqualTo("worker");
    List<String> workerTools = listed(api.transcript(worker)).values().iterator().next();
    assertThat(workerTools)
        .contains("mark_routine", "cortex_ask_user", "current_time")
        .doesNotContain("worker_spawn", "worker_list");

    // mark_routine from a session that is not a worker is refused by the route.
    var refused =
        server.post(
            "/webhook/team/routine",
            "{\"session_id\": \"" + lead + "\"}",
            Map.of("x-cortex-token", server.token()));
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("NOT_A_WORKER");
  }

  @Test
  void spawn_send_list_stop_andEachReportComesToTheMainSessionAsAMessage() throws Exception {
    String lead = main("team-lead");
    JsonNode spawned =
        ok(
            tool(
                lead,
                "worker_spawn",
                Map.of("name", "alpha", "prompt", script(Map.of("say", "alpha is done")))));
    assertThat(spawned.path("worker").path("worker_id").asString()).matches("wk-[0-9a-f]{12}");
    awaitUser(lead, "Worker alpha", "alpha is done");

    JsonNode taken =
        tool(
            lead,
            "worker_spawn",
            Map.of("name", "alpha", "prompt", script(Map.of("say", "again"))));
    assertThat(taken.path("body").path("is_error").asBoolean()).isTrue();
    assertThat(taken.toString()).contains("NAME_TAKEN");

    api.awaitIdle(lead);
    ok(
        tool(
            lead,
            "worker_send",
            Map.of("worker", "alpha", "message", script(Map.of("say", "second report")))));
    awaitUser(lead, "Worker alpha", "second report");

    api.awaitIdle(lead);
    JsonNode one = ok(tool(lead, "worker_list", Map.of("worker", "alpha")));
    JsonNode alpha = one.path("workers").get(0);
    assertThat(alpha.path("name").asString()).isEqualTo("alpha");
    assertThat(alpha.path("last_status").asString()).isEqualTo("completed");
    assertThat(alpha.path("last_report").asString()).isEqualTo("second report");

    api.awaitIdle(lead);
    ok(
        tool(
            lead,
            "worker_send",
            Map.of("worker", "alpha", "message", script(Map.of("sleep_ms", 60_000)))));
    String workerSession = alpha.path("session_id").asString();
    dev.cortex.testing.Eventually.until(
        "alpha running",
        AgentServer.LIMIT,
        () -> {
          try {
            return api.show(workerSession).path("state").asString().equals("running");
          } catch (Exception e) {
            return false;
          }
        });
    api.awaitIdle(lead);
    JsonNode stopped = ok(tool(lead, "worker_stop", Map.of("worker", "alpha")));
    assertThat(stopped.path("stopped").asBoolean()).as("%s", stopped).isTrue();
    awaitUser(lead, "Worker alpha", "stopped");

    api.awaitIdle(lead);
    JsonNode unknown = tool(lead, "worker_send", Map.of("worker", "nobody", "message", "hi"));
    assertThat(unknown.toString()).contains("NOT_FOUND");
  }

  @Test
  void markRoutine_keepsTheReportUnreadWithoutWakingTheMain_butAFailedRoutineTurnWakesIt()
      throws Exception {
    String lead = main("team-routine");
    String routine =
        script(
            Map.of("calls", List.of(call("mark_routine", Map.of())), "say", "nothing new today"));
    JsonNode spawned = ok(tool(lead, "worker_spawn", Map.of("name", "watch", "prompt", routine)));
    String worker = spawned.path("worker").path("session_id").asString();
    api.awaitIdle(worker);
    api.awaitIdle(lead);
    int turns = api.executionsOf(lead).size();
    // The note is in the main session's transcript; no message, no turn.
    api.awaitEntry(
        lead,
        e ->
            e.path("kind").asString().equals("note")
                && e.path("body").path("text").asString().contains("nothing new today"),
        "the routine note");
    assertThat(SessionApi.userTexts(api.transcript(lead)))
        .noneMatch(t -> t.startsWith("Worker watch"));
    assertThat(api.executionsOf(lead)).hasSize(turns);

    JsonNode roster = ok(tool(lead, "worker_list", Map.of()));
    assertThat(roster.path("workers").get(0).path("unread").asInt()).isEqualTo(1);

    api.awaitIdle(lead);
    ok(
        tool(
            lead,
            "worker_send",
            Map.of(
                "worker",
                "watch",
                "message",
                script(
                    Map.of(
                        "calls",
                        List.of(call("mark_routine", Map.of())),
                        "fail",
                        "the check broke")))));
    awaitUser(lead, "Worker watch", "the check broke");
  }

  @Test
  void aWorkersQuestion_reachesTheMainSession_andWorkerAnswerAnswersIt() throws Exception {
    String lead = main("team-asker");
    String ask =
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        Map.of(
                            "questions",
                            List.of(
                                Map.of(
                                    "question",
                                    "Which branch?",
                                    "options",
                                    List.of(Map.of("label", "main"), Map.of("label", "dev")))))))));
    ok(tool(lead, "worker_spawn", Map.of("name", "asker", "prompt", ask)));
    JsonNode message = awaitUser(lead, "Worker asker asks", "Which branch?");
    String text = message.path("body").path("text").asString();
    String requestId = text.replaceAll("(?s).*\\(request (ia-[0-9a-f]{12})\\).*", "$1");
    assertThat(requestId).matches("ia-[0-9a-f]{12}");

    api.awaitIdle(lead);
    JsonNode answered =
        ok(
            tool(
                lead,
                "worker_answer",
                Map.of(
                    "request_id",
                    requestId,
                    "answers",
                    List.of(Map.of("selected", List.of("dev"))))));
    assertThat(answered.path("state").asString()).isEqualTo("answered");
    assertThat(answered.path("worker").asString()).isEqualTo("asker");
    awaitUser(lead, "Worker asker", "dev");

    api.awaitIdle(lead);
    JsonNode again =
        tool(
            lead,
            "worker_answer",
            Map.of("request_id", requestId, "answers", List.of(Map.of("text", "x"))));
    assertThat(again.toString()).contains("ALREADY_ANSWERED");
  }
}
