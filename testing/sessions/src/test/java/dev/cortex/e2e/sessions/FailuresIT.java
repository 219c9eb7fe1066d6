package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.script;
import static dev.cortex.testing.SessionApi.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.session.Sessions;
import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.SessionApi;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What goes wrong, and what it leaves: a backend that crashes, and bad input to the API, the CLI
 * and the ext tools, refused with stable codes and nothing written.
 */
class FailuresIT extends OnOneServer {
  @Test
  void crash_failsTheTurnWithItsStderrTail_thenMalformedLinesAreNotes_andTheSessionGoesOn()
      throws Exception {
    String id = fixture.scripted("crashing", Map.of()).path("id").asString();

    SessionApi.Answer crashed =
        api.follow(id, script(Map.of("say", "about to crash", "exit_without_end", true)));

    JsonNode end = crashed.result();
    assertThat(end.path("status").asString()).isEqualTo("failed");
    assertThat(end.path("error").asString())
        .startsWith("the backend exited with code 3 before the turn ended")
        .contains("scripted agent: exiting without an end line, as the script says");
    JsonNode record = api.execution(end.path("execution_id").asString());
    assertThat(record.path("status").asString()).isEqualTo("failed");
    assertThat(record.path("error").asString()).isEqualTo(end.path("error").asString());
    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript)).containsExactly("user", "assistant", "system");
    assertThat(transcript.get(2).path("body").path("text").asString())
        .isEqualTo("The turn failed: " + end.path("error").asString());

    SessionApi.Answer next = api.follow(id, script(Map.of("malformed", true, "say", "still here")));

    assertThat(next.result().path("status").asString()).isEqualTo("completed");
    List<JsonNode> after = api.transcript(id);
    assertThat(kinds(after.subList(3, after.size()))).containsExactly("user", "note", "assistant");
    assertThat(after.get(4).path("body").path("text").asString())
        .startsWith("the backend printed a line that is not JSON: this line is not JSON");
  }

  @Test
  void badInput_toTheApi_getsStableCodes_andWritesNothing() throws Exception {
    List<String> before = fixture.sessionIds();
    List<String> program = AgentPrograms.run(programs.hold);
    Map<String, Object> base = new LinkedHashMap<>();
    base.put("backend", "command");
    base.put("program", program);
    base.put("working_dir", work.toString());
    record Bad(Map<String, Object> change, String message) {}
    List<Bad> bad =
        List.of(
            new Bad(Map.of("backend", "gpt-cli"), "Unknown backend 'gpt-cli'. Known: "),
            new Bad(Map.of("program", List.of()), "needs the program"),
            new Bad(Map.of("name", "-dash"), "is not a session name"),
            new Bad(Map.of("name", "has space"), "is not a session name"),
            new Bad(Map.of("name", "n".repeat(65)), "is not a session name"),
            new Bad(Map.of("channel", "irc:#general"), "is not a channel"),
            new Bad(Map.of("channel", "cli:"), "is not a channel"),
            new Bad(Map.of("channel", "cli:two words"), "is not a channel"),
            new Bad(Map.of("project", "two words"), "is not a project name"),
            new Bad(Map.of("working_dir", "relative/dir"), "is not an existing absolute"),
            new Bad(
                Map.of("working_dir", work.resolve("missing").toString()), "is not an existing"),
            new Bad(Map.of("composition", "partial"), "composition is direct or none"),
            new Bad(Map.of("started_by", "robot"), "started_by is person, agent"),
            new Bad(Map.of("tool_allowlist", List.of()), "names at least one tool"),
            new Bad(Map.of("tool_allowlist", List.of("")), "'' is not a tool name"),
            new Bad(
                Map.of("tool_allowlist", List.of("current_time,remote_bash")),
                "'current_time,remote_bash' is not a tool name"),
            new Bad(
                Map.of("tool_allowlist", List.of("current_time", "curent_tme")),
                "names curent_tme, not served by the selected groups (core, ext, interaction)"),
            new Bad(
                Map.of("started_by", "agent", "tool_allowlist", List.of("cost_query", "runs_list")),
                "names runs_list, not served by the selected groups (core, ext)"));
    for (Bad case_ : bad) {
      Map<String, Object> body = new LinkedHashMap<>(base);
      body.putAll(case_.change());
      SessionApi.Answer answer = api.call("create", body);
      assertThat(answer.status()).as("%s", case_).isEqualTo(400);
      assertThat(answer.code()).as("%s", case_).isEqualTo("INVALID_ARGUMENT");
      assertThat(answer.message()).as("%s", case_).contains(case_.message());
    }
    // A misspelt field used to be ignored: {"bakend": "command"} made a claude session.
    for (Map.Entry<String, Map<String, Object>> misspelt :
        Map.of(
                "create",
                Map.<String, Object>of("bakend", "command", "program", program),
                "list",
                Map.<String, Object>of("limt", 5),
                "show",
                Map.<String, Object>of("session", "x", "later", true),
                "send",
                Map.<String, Object>of("session", "x", "text", "hi", "folow", true),
                "stop",
                Map.<String, Object>of("session", "x", "force", true),
                "transcript",
                Map.<String, Object>of("session", "x", "from", 3))
            .entrySet()) {
      SessionApi.Answer answer = api.call(misspelt.getKey(), misspelt.getValue());
      String field =
          misspelt.getValue().keySet().stream()
              .filter(k -> !List.of("program", "session", "text").contains(k))
              .findFirst()
              .orElseThrow();
      assertThat(answer.status()).as("%s", misspelt).isEqualTo(400);
      assertThat(answer.code()).as("%s", misspelt).isEqualTo("INVALID_ARGUMENT");
      assertThat(answer.message()).as("%s", misspelt).contains("'" + field + "'");
    }
    // The platform channels are reserved for their front doors.
    for (String channel : List.of("web:board-7", "slack:C0123", "feishu:oc_42")) {
      Map<String, Object> body = new LinkedHashMap<>(base);
      body.put("channel", channel);
      SessionApi.Answer answer = api.call("create", body);
      assertThat(answer.status()).as(channel).isEqualTo(403);
      assertThat(answer.code()).as(channel).isEqualTo("RESERVED_CHANNEL");
      assertThat(answer.message()).as(channel).contains(channel).contains("reserved");
    }
    for (String body : List.of("{nope", "[]", "\"text\"", "")) {
      SessionApi.Answer answer = api.raw("create", body, Duration.ofSeconds(30));
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.code()).as(body).isEqualTo("INVALID_ARGUMENT");
    }

    Map<String, Object> first = new LinkedHashMap<>(base);
    first.put("name", "taken");
    first.put("channel", "cli:shared-channel");
    String taken = api.create(program, work, first).path("id").asString();
    Map<String, Object> sameChannel = new LinkedHashMap<>(first);
    sameChannel.put("name", "other");
    SessionApi.Answer channel = api.call("create", sameChannel);
    assertThat(channel.code()).isEqualTo("INVALID_ARGUMENT");
    assertThat(channel.message())
        .isEqualTo("Channel cli:shared-channel has a session already: one agent runs per channel.");
    Map<String, Object> sameName = new LinkedHashMap<>(base);
    sameName.put("name", "taken");
    assertThat(api.call("create", sameName).message())
        .isEqualTo("A session named 'taken' exists already.");

    for (String empty : List.of("", "   \n")) {
      SessionApi.Answer answer = api.call("send", Map.of("session", taken, "text", empty));
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
      assertThat(answer.message()).isEqualTo("The message is empty.");
    }
    assertThat(api.call("send", Map.of("session", taken)).code()).isEqualTo("INVALID_ARGUMENT");
    for (String route : List.of("show", "send", "stop", "transcript")) {
      SessionApi.Answer answer =
          api.call(
              route,
              route.equals("send")
                  ? Map.of("session", "no-such-session", "text", "hello")
                  : Map.of("session", "no-such-session"));
      assertThat(answer.status()).as(route).isEqualTo(404);
      assertThat(answer.code()).as(route).isEqualTo("NOT_FOUND");
      assertThat(answer.message()).as(route).isEqualTo("No session 'no-such-session'.");
    }
    for (Object limit : List.of(0, 201, -1, "many")) {
      SessionApi.Answer answer = api.call("list", Map.of("limit", limit));
      assertThat(answer.status()).as("list limit %s", limit).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
    }
    assertThat(api.call("list", Map.of("limit", 200)).status()).isEqualTo(200);
    for (Map<String, Object> page :
        List.of(
            Map.<String, Object>of("limit", 0),
            Map.<String, Object>of("limit", 501),
            Map.<String, Object>of("after", -1))) {
      Map<String, Object> body = new LinkedHashMap<>(page);
      body.put("session", taken);
      SessionApi.Answer answer = api.call("transcript", body);
      assertThat(answer.status()).as("transcript %s", page).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
    }
    assertThat(api.call("transcript", Map.of("session", taken, "limit", 500)).status())
        .isEqualTo(200);
    HttpResponse<String> noToken = server.post(Sessions.LIST, "{}", Map.of());
    assertThat(noToken.statusCode()).isEqualTo(401);

    List<String> after = fixture.sessionIds();
    List<String> expected = new ArrayList<>(before);
    expected.add(taken);
    assertThat(after).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(api.transcript(taken)).isEmpty();
    assertThat(api.executionsOf(taken)).isEmpty();
    assertThat(api.show(taken).path("state").asString()).isEqualTo("idle");
  }

  @Test
  void badInput_toTheCli_failsWithTheCodeAndExitStatus() throws Exception {
    CliRun backend =
        CliRun.run(server, "", "sessions", "new", "--backend", "gpt-cli", "--cwd", work.toString());
    assertThat(backend.exitCode()).isEqualTo(1);
    assertThat(backend.stderr()).contains("cortex: INVALID_ARGUMENT: Unknown backend 'gpt-cli'");
    CliRun unknown = CliRun.run(server, "", "sessions", "show", "no-such-session");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("cortex: NOT_FOUND: No session 'no-such-session'.");
    CliRun limit = CliRun.run(server, "", "sessions", "list", "--limit", "0");
    assertThat(limit.exitCode()).isEqualTo(1);
    assertThat(limit.stderr()).contains("cortex: INVALID_ARGUMENT: limit must be 1 to 200.");
    CliRun allow =
        CliRun.run(
            server,
            "",
            "sessions",
            "new",
            "--backend",
            "command",
            "--program",
            programs.hold.toString(),
            "--cwd",
            work.toString(),
            "--allow",
            "");
    assertThat(allow.exitCode()).as(allow.stderr()).isEqualTo(1);
    assertThat(allow.stderr()).contains("cortex: INVALID_ARGUMENT: ");
    api.create(AgentPrograms.run(programs.hold), work, Map.of("name", "cli-bad-input"));
    CliRun empty = CliRun.run(server, "", "sessions", "send", "cli-bad-input", " ");
    assertThat(empty.exitCode()).isEqualTo(1);
    assertThat(empty.stderr()).contains("cortex: INVALID_ARGUMENT: The message is empty.");
    CliRun usage = CliRun.run(server, "", "sessions", "send", "no-text");
    assertThat(usage.exitCode()).isEqualTo(2);
  }

  @Test
  void badInput_toTheExtTools_getsStableCodes() throws Exception {
    for (Map<String, Object> args :
        List.<Map<String, Object>>of(
            Map.of("status", "finished"),
            Map.of("limit", 0),
            Map.of("limit", 101),
            Map.of("project", ""))) {
      Outcome outcome = api.tool("query_executions", args);
      assertThat(outcome.isError()).as("%s", args).isTrue();
      assertThat(outcome.errorCode()).as("%s", args).isEqualTo("INVALID_ARGUMENT");
    }
    Outcome unknown = api.tool("query_executions", Map.of("execution_id", "exe-none"));
    assertThat(unknown.isError()).isTrue();
    assertThat(unknown.errorMessage()).isEqualTo("No execution 'exe-none'.");
    Outcome project = api.tool("cost_query", Map.of("projectId", ""));
    assertThat(project.isError()).isTrue();
    assertThat(project.errorCode()).isEqualTo("INVALID_ARGUMENT");
    // The store still answers.
    assertThat(api.tool("query_executions", Map.of("status", "all", "limit", 1)).isError())
        .isFalse();
  }
}
