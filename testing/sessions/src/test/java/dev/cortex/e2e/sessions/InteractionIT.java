package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A person in the loop: the scripted agent calls the {@code interaction} group's tools through its
 * session's real MCP server, and a person answers from the terminal ({@code cortex answer}).
 */
class InteractionIT extends OnOneServer {
  private static final Map<String, Object> QUESTION =
      Map.of(
          "question",
          "Which database should the service use?",
          "header",
          "Database",
          "options",
          List.of(
              Map.of("label", "sqlite", "description", "one file, no server"),
              Map.of("label", "postgres")));

  @Test
  void askUser_blocking_waitsForTheAnswerGivenWithCortexAnswer_andTheFirstAnswerWins()
      throws Exception {
    String id = session("asks-blocking");
    api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        Map.of(
                            "questions",
                            List.of(QUESTION, Map.of("question", "Anything else?")),
                            "level",
                            "warn"))))));

    JsonNode open = awaitOpen(id);
    String request = open.path("id").asString();
    assertThat(open.path("kind").asString()).isEqualTo("question");
    assertThat(open.path("level").asString()).isEqualTo("warning");
    assertThat(api.show(id).path("waiting_for").asString()).isEqualTo("question");
    CliRun listed = cli("sessions", "list");
    assertThat(listed.stdout()).contains("waiting (question)");
    CliRun shown = cli("interactions", "show", request);
    assertThat(shown.stdout())
        .contains("Which database should the service use?", "1) sqlite — one file, no server")
        .contains("cortex answer " + request + " ANSWER ANSWER");

    CliRun answered = cli("answer", request, "2", "keep it small");
    assertThat(answered.exitCode()).as(answered.stderr()).isZero();
    CliRun again = cli("answer", request, "sqlite", "no");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).contains("ALREADY_ANSWERED");

    JsonNode result = awaitToolResult(id);
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    JsonNode answers = content(result).path("answers");
    assertThat(answers.get(0).path("selected").get(0).asString()).isEqualTo("postgres");
    assertThat(answers.get(1).path("text").asString()).isEqualTo("keep it small");
    assertThat(content(result).path("via").asString()).isEqualTo("terminal");
    api.awaitIdle(id);
    assertThat(api.show(id).path("waiting_for").isNull()).isTrue();
    JsonNode kept = shownJson(request);
    assertThat(kept.path("state").asString()).isEqualTo("answered");
    assertThat(kept.path("answer").path("via").asString()).isEqualTo("terminal");
  }

  @Test
  void askUser_notBlocking_returnsAtOnce_andTheAnswerComesAsTheNextUserMessageOnce()
      throws Exception {
    String id = session("asks-later");
    api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        Map.of("questions", List.of(QUESTION), "blocking", false))),
                "say",
                "kept working")));
    JsonNode result = ofKind(api.transcript(id), "tool_result").get(0);
    assertThat(content(result).path("state").asString()).as("%s", result).isEqualTo("open");
    String request = content(result).path("request_id").asString();
    assertThat(api.show(id).path("waiting_for").isNull())
        .as("a question that does not block leaves the session running, not waiting")
        .isTrue();

    CliRun answered = cli("answer", request, "sqlite");
    assertThat(answered.exitCode()).as(answered.stderr()).isZero();

    JsonNode message =
        api.awaitEntry(
            id,
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().contains(request),
            "the answer as a user message");
    assertThat(message.path("body").path("text").asString())
        .contains("Q1 [Database]: Which database should the service use?", "A1: sqlite");
    api.awaitIdle(id);
    assertThat(cli("answer", request, "postgres").stderr()).contains("ALREADY_ANSWERED");
    List<String> users = SessionApi.userTexts(api.transcriptAll(id));
    assertThat(users.stream().filter(t -> t.contains(request)).count()).isEqualTo(1);
    assertThat(
            ofKind(api.transcriptAll(id), "assistant").stream()
                .filter(e -> e.path("body").path("text").asString().contains(request))
                .count())
        .as("the agent got the answer once (it says its prompt back)")
        .isEqualTo(1);
  }

  @Test
  void planExit_approved_isTheCallsAnswer_andEndsPlanning() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/PLAN.md"), "# Plan\n1. add the index\n2. test it\n");
    String id = session("plans-approved");
    api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call("cortex_plan_enter", Map.of("reasoning", "a schema change")),
                    call(
                        "cortex_plan_exit",
                        Map.of("plan_file_path", "plan/PLAN.md", "summary", "an index"))))));
    JsonNode open = awaitOpen(id);
    assertThat(open.path("kind").asString()).isEqualTo("plan");
    assertThat(open.path("plan").path("content").asString()).contains("add the index");
    JsonNode shown = api.show(id);
    assertThat(shown.path("waiting_for").asString()).isEqualTo("plan");
    assertThat(shown.path("planning").asBoolean()).isTrue();
    CliRun card = cli("interactions", "show", open.path("id").asString());
    assertThat(card.stdout()).contains("plan/PLAN.md", "2. test it", "--approve");

    CliRun approved = cli("answer", open.path("id").asString(), "--approve");
    assertThat(approved.exitCode()).as(approved.stderr()).isZero();

    JsonNode entered = awaitToolResult(id, 0);
    assertThat(content(entered).path("instructions").asString()).contains("plan/");
    JsonNode decided = awaitToolResult(id, 1);
    assertThat(content(decided).path("approved").asBoolean()).as("%s", decided).isTrue();
    api.awaitIdle(id);
    assertThat(api.show(id).path("planning").asBoolean()).isFalse();
  }

  @Test
  void planExit_rejected_givesTheFeedback_andBadPlanFilesAreRefused() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/REJECT.md"), "# Plan\ndrop the table\n");
    String id = session("plans-rejected");
    api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call("cortex_plan_exit", Map.of("plan_file_path", "../outside.md")),
                    call("cortex_plan_exit", Map.of("plan_file_path", "plan/MISSING.md")),
                    call("cortex_plan_exit", Map.of("plan_file_path", "plan/REJECT.md"))))));
    String request = awaitOpen(id).path("id").asString();
    CliRun noFeedback = cli("answer", request, "--reject");
    assertThat(noFeedback.exitCode()).isEqualTo(1);
    assertThat(noFeedback.stderr()).contains("INVALID_ARGUMENT", "feedback");
    CliRun rejected = cli("answer", request, "--reject", "--feedback", "keep the table");
    assertThat(rejected.exitCode()).as(rejected.stderr()).isZero();

    JsonNode outside = awaitToolResult(id, 0);
    assertThat(outside.path("body").path("is_error").asBoolean()).isTrue();
    assertThat(outside.path("body").path("content").asString())
        .contains("PLAN_OUTSIDE")
        .doesNotContain(work.toString());
    assertThat(awaitToolResult(id, 1).path("body").path("content").asString())
        .contains("PLAN_NOT_FOUND");
    JsonNode decided = content(awaitToolResult(id, 2));
    assertThat(decided.path("approved").asBoolean()).isFalse();
    assertThat(decided.path("feedback").asString()).isEqualTo("keep the table");
  }

  @Test
  void askUser_badArguments_areRefusedByTheSchema_andUnknownRequestsByCode() throws Exception {
    String id = session("asks-badly");
    api.follow(
        id,
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
                                    "Pick one?",
                                    "header",
                                    "far too long a header",
                                    "options",
                                    List.of(Map.of("label", "only one"))))))))));
    JsonNode refused = ofKind(api.transcript(id), "tool_result").get(0);
    assertThat(refused.path("body").path("is_error").asBoolean()).isTrue();
    assertThat(refused.path("body").path("content").asString()).contains("INVALID_ARGUMENT");
    CliRun unknown = cli("answer", "ia-000000000000", "x");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("NOT_FOUND");
    java.net.http.HttpResponse<String> strict =
        AgentServer.HTTP.send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(
                        "http://127.0.0.1:" + server.webhookPort + "/api/interactions/list"))
                .header("x-cortex-token", server.token())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"sesion\": \"x\"}"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(strict.statusCode()).isEqualTo(400);
    assertThat(strict.body()).contains("INVALID_ARGUMENT", "sesion");
  }

  private static String session(String name) throws Exception {
    return fixture.scripted(name, Map.of()).path("id").asString();
  }

  private static CliRun cli(String... args) throws Exception {
    return CliRun.run(server, "", args);
  }

  private static JsonNode shownJson(String request) throws Exception {
    CliRun shown = cli("interactions", "show", request, "--json");
    assertThat(shown.exitCode()).as(shown.stderr()).isZero();
    return TestJson.JSON.readTree(shown.stdout());
  }

  private static JsonNode awaitOpen(String sessionId) {
    return awaitOpen(server, sessionId);
  }

  /** The session's first open interaction, once there is one (listed with the CLI). */
  static JsonNode awaitOpen(AgentServer on, String sessionId) {
    AtomicReference<JsonNode> found = new AtomicReference<>();
    Eventually.until(
        "an open interaction of " + sessionId,
        AgentServer.LIMIT,
        () -> {
          try {
            CliRun listed =
                CliRun.run(on, "", "interactions", "list", "--session", sessionId, "--json");
            JsonNode all = TestJson.JSON.readTree(listed.stdout());
            if (all.size() > 0) {
              found.set(all.get(0));
              return true;
            }
            return false;
          } catch (Exception e) {
            return false;
          }
        });
    return found.get();
  }

  private static JsonNode awaitToolResult(String id) {
    return awaitToolResult(id, 0);
  }

  /** The {@code n}th tool result of the session, once it is there. */
  private static JsonNode awaitToolResult(String id, int n) {
    AtomicReference<JsonNode> found = new AtomicReference<>();
    Eventually.until(
        "tool result " + n + " of " + id,
        AgentServer.LIMIT,
        () -> {
          try {
            List<JsonNode> results = ofKind(api.transcript(id), "tool_result");
            if (results.size() > n) {
              found.set(results.get(n));
              return true;
            }
            return false;
          } catch (Exception e) {
            return false;
          }
        });
    return found.get();
  }
}
