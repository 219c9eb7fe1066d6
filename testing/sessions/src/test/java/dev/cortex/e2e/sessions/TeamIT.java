package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.listed;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
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

    // A session without Cortex's tools (composition none) is no team's main; a subagent of a
    // main session has neither group.
    String bare =
        fixture.scripted("team-bare", Map.of("composition", "none")).path("id").asString();
    api.follow(bare, script(Map.of("list_tools", true)));
    assertThat(listed(api.transcript(bare)).values().stream().flatMap(List::stream))
        .doesNotContain("worker_spawn", "mark_routine");
    JsonNode delegated =
        ok(
            tool(
                lead,
                "agent",
                Map.of(
                    "description",
                    "list tools",
                    "prompt",
                    script(Map.of("list_tools", true)),
                    "subagent_type",
                    "general-purpose")));
    String child = delegated.path("agents").get(0).path("session_id").asString();
    assertThat(listed(api.transcript(child)).values().iterator().next())
        .contains("current_time")
        .doesNotContain("worker_spawn", "worker_list", "mark_routine", "agent");

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
                        dev.cortex.testing.ScriptedAgent.askOne("Which branch?", "main", "dev")))));
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

  @Test
  void twoWorkersPlans_oneApprovedOneRejected_eachAnsweredOnlyByItsOwnMain() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/A.md"), "# Plan A\nadd the index\n");
    Files.writeString(work.resolve("plan/B.md"), "# Plan B\ndrop the table\n");
    String lead = main("team-planner");
    String other = main("team-bystander");
    for (String name : List.of("a", "b")) {
      ok(
          tool(
              lead,
              "worker_spawn",
              Map.of(
                  "name",
                  "planner-" + name,
                  "prompt",
                  script(
                      Map.of(
                          "calls",
                          List.of(
                              call(
                                  "cortex_plan_exit",
                                  Map.of(
                                      "plan_file_path",
                                      "plan/" + name.toUpperCase(java.util.Locale.ROOT) + ".md",
                                      "summary",
                                      "plan " + name))))))));
      api.awaitIdle(lead);
    }
    String a = requestOf(awaitUser(lead, "Worker planner-a", "approve its plan", "add the index"));
    String b = requestOf(awaitUser(lead, "Worker planner-b", "approve its plan", "drop the table"));
    JsonNode roster = ok(tool(lead, "worker_list", Map.of()));
    assertThat(roster.path("workers").size()).isEqualTo(2);
    assertThat(roster.path("workers").get(0).path("pending").get(0).asString()).isEqualTo(a);

    // Another team's main session cannot answer them; a plan is not answered with answers.
    api.awaitIdle(other);
    assertThat(tool(other, "worker_answer", Map.of("request_id", a, "approved", true)).toString())
        .contains("NOT_FOUND");
    api.awaitIdle(lead);
    assertThat(
            tool(
                    lead,
                    "worker_answer",
                    Map.of("request_id", a, "answers", List.of(Map.of("text", "yes"))))
                .toString())
        .contains("INVALID_ARGUMENT", "approved");

    api.awaitIdle(lead);
    assertThat(
            ok(tool(lead, "worker_answer", Map.of("request_id", a, "approved", true)))
                .path("kind")
                .asString())
        .isEqualTo("plan");
    api.awaitIdle(lead);
    ok(
        tool(
            lead,
            "worker_answer",
            Map.of("request_id", b, "approved", false, "feedback", "keep the table")));
    awaitUser(lead, "Worker planner-a", "reports");
    awaitUser(lead, "Worker planner-b", "reports");
    for (String name : List.of("planner-a", "planner-b")) {
      String session =
          api.awaitEntry(
                  lead,
                  e -> e.path("body").path("text").asString().contains("Worker " + name + " (wk-"),
                  name)
              .path("body")
              .path("text")
              .asString()
              .replaceAll("(?s).*session (ses-[0-9a-f]{16}).*", "$1");
      api.awaitIdle(session);
      JsonNode decided = content(ofKind(api.transcript(session), "tool_result").get(0));
      if (name.equals("planner-a")) {
        assertThat(decided.path("approved").asBoolean()).as("%s", decided).isTrue();
      } else {
        assertThat(decided.path("approved").asBoolean()).as("%s", decided).isFalse();
        assertThat(decided.path("feedback").asString()).isEqualTo("keep the table");
      }
    }
  }

  private static String requestOf(JsonNode message) {
    String text = message.path("body").path("text").asString();
    String id = text.replaceAll("(?s).*\\(request (ia-[0-9a-f]{12})\\).*", "$1");
    assertThat(id).matches("ia-[0-9a-f]{12}");
    return id;
  }

  @Test
  void badRequestsToTheRoutes_areRefusedWithStableCodes_andWriteNothing() throws Exception {
    String lead = main("team-refuser");
    Map<String, String> token = Map.of("x-cortex-token", server.token());
    String session = "\"session_id\": \"" + lead + "\"";
    List<Map.Entry<String, String>> refusals = new java.util.ArrayList<>();
    refusals.add(
        Map.entry(
            "/webhook/team/spawn", "{" + session + ", \"name\": \"Bad Name\", \"prompt\": \"x\"}"));
    refusals.add(Map.entry("/webhook/team/spawn", "{" + session + ", \"name\": \"ok\"}"));
    refusals.add(
        Map.entry("/webhook/team/spawn", "{" + session + ", \"name\": \"ok\", \"prompt\": \"\"}"));
    refusals.add(
        Map.entry(
            "/webhook/team/spawn",
            "{" + session + ", \"name\": \"ok\", \"prompt\": \"x\", \"extra\": 1}"));
    refusals.add(Map.entry("/webhook/team/send", "{" + session + ", \"worker\": \"ok\"}"));
    refusals.add(Map.entry("/webhook/team/stop", "{" + session + "}"));
    refusals.add(Map.entry("/webhook/team/answer", "{" + session + ", \"request_id\": \"nope\"}"));
    refusals.add(Map.entry("/webhook/team/list", "[]"));
    refusals.add(Map.entry("/webhook/team/routine", "{}"));
    for (Map.Entry<String, String> refusal : refusals) {
      var answer = server.post(refusal.getKey(), refusal.getValue(), token);
      assertThat(answer.statusCode()).as("%s %s", refusal, answer.body()).isEqualTo(400);
      assertThat(answer.body()).contains("INVALID_ARGUMENT").doesNotContain("Exception");
    }
    for (String body :
        List.of(
            "{" + session + ", \"name\": \"Bad Name\", \"prompt\": \"x\"}",
            "{" + session + ", \"name\": \"ok\", \"prompt\": \"x\", \"extra\": 1}",
            "{" + session + ", \"name\": \"ok\", \"prompt\": \"x\", \"backend\": \"nope\"}")) {
      var answer = server.post("/webhook/team/spawn", body, token);
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
      assertThat(answer.body()).contains("INVALID_ARGUMENT");
    }
    var noToken = server.post("/webhook/team/list", "{" + session + "}", Map.of());
    assertThat(noToken.statusCode()).isEqualTo(401);
    var unknownMain =
        server.post("/webhook/team/list", "{\"session_id\": \"ses-0000000000000000\"}", token);
    assertThat(unknownMain.statusCode()).as(unknownMain.body()).isEqualTo(404);
    // Nothing was written: the roster is empty, and no session was made for a worker.
    int sessions = api.call("list", Map.of("limit", 200)).result().path("sessions").size();
    assertThat(ok(tool(lead, "worker_list", Map.of())).path("workers").size()).isZero();
    assertThat(api.call("list", Map.of("limit", 200)).result().path("sessions").size())
        .isEqualTo(sessions);

    // A name twice, and more workers than the cap.
    String quick = script(Map.of("say", "ready"));
    for (int i = 0; i < 8; i++) {
      var spawned =
          server.post(
              "/webhook/team/spawn",
              "{" + session + ", \"name\": \"w" + i + "\", \"prompt\": " + q(quick) + "}",
              token);
      assertThat(spawned.statusCode()).as(spawned.body()).isEqualTo(200);
      if (i == 0) {
        var taken =
            server.post(
                "/webhook/team/spawn",
                "{" + session + ", \"name\": \"w0\", \"prompt\": \"x\"}",
                token);
        assertThat(taken.statusCode()).isEqualTo(409);
        assertThat(taken.body()).contains("NAME_TAKEN");
      }
    }
    var ninth =
        server.post(
            "/webhook/team/spawn", "{" + session + ", \"name\": \"w8\", \"prompt\": \"x\"}", token);
    assertThat(ninth.statusCode()).isEqualTo(409);
    assertThat(ninth.body()).contains("TOO_MANY_WORKERS");
  }

  private static String q(String text) {
    return tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(text);
  }

  @Test
  void workersCli_listsSendsAndStops_forAPersonAtATerminal() throws Exception {
    String lead = main("team-by-hand");
    JsonNode spawned =
        ok(
            tool(
                lead,
                "worker_spawn",
                Map.of("name", "hand", "prompt", script(Map.of("say", "first by hand")))));
    String id = spawned.path("worker").path("worker_id").asString();
    awaitUser(lead, "Worker hand", "first by hand");

    CliRun list = CliRun.run(server, "", "workers", "list", "--session", "team-by-hand");
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).contains("ID", "NAME", id, "hand", "completed", "first by hand");
    CliRun json = CliRun.run(server, "", "workers", "list", "--json");
    assertThat(TestJson.JSON.readTree(json.stdout()).path("workers").toString()).contains(id);

    api.awaitIdle(lead);
    CliRun sent =
        CliRun.run(
            server,
            "",
            "workers",
            "send",
            "hand",
            script(Map.of("say", "second by hand")),
            "--session",
            lead);
    assertThat(sent.exitCode()).as(sent.stderr()).isZero();
    awaitUser(lead, "Worker hand", "second by hand");

    api.awaitIdle(lead);
    CliRun idle = CliRun.run(server, "", "workers", "stop", id);
    assertThat(idle.exitCode()).isEqualTo(1);
    assertThat(idle.stderr()).contains("no turn running");

    CliRun nameAlone = CliRun.run(server, "", "workers", "stop", "hand");
    assertThat(nameAlone.exitCode()).isEqualTo(1);
    assertThat(nameAlone.stderr()).contains("INVALID_ARGUMENT", "session");
    CliRun unknown = CliRun.run(server, "", "workers", "send", "wk-000000000000", "hi");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("NOT_FOUND");
  }
}
