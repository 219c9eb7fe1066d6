package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.awaitEnded;
import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
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
 * Subagents that outlive the call that started them: {@code run_in_background}, the hand-off of a
 * foreground call past its limit (shortened here to one second by the test setting {@code
 * CORTEX_TEST_SUBAGENT_HANDOFF_SECONDS}), the results arriving later as one message to the parent,
 * and {@code agent_stop} ending a running subagent's process and discarding its output.
 */
class SubagentsBackgroundIT {
  @TempDir static Path home;
  @TempDir static Path work;

  /** A role of cortex.toml's [agents] table. */
  static final String TOML =
      """
      [agents.clock-reader]
      description = "Reads the clock, and nothing else."
      tools = ["current_time"]
      """;

  static SessionServer fixture;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        SessionServer.start(
            home, work, TOML, Map.of("CORTEX_TEST_SUBAGENT_HANDOFF_SECONDS", "1"), null);
    api = fixture.api;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  static Map<String, Object> single(String description, String prompt, boolean background) {
    return Map.of(
        "description",
        description,
        "prompt",
        prompt,
        "subagent_type",
        "general-purpose",
        "run_in_background",
        background);
  }

  /** One turn of {@code parent} calling {@code tool}; the tool's result. */
  static JsonNode calls(String parent, String tool, Map<String, Object> arguments)
      throws Exception {
    int before = ofKind(api.transcriptAll(parent), "tool_result").size();
    SessionApi.Answer answer =
        api.follow(parent, script(Map.of("calls", List.of(call(tool, arguments)))));
    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    return ofKind(api.transcriptAll(parent), "tool_result").get(before);
  }

  /** The messages the server sent {@code parent} about {@code text}, once it is idle. */
  static List<JsonNode> messagesMentioning(String parent, String text) throws Exception {
    api.awaitEntry(
        parent,
        e ->
            e.path("kind").asString().equals("user")
                && e.path("body").path("text").asString().contains(text),
        "a message about " + text);
    api.awaitIdle(parent);
    return ofKind(api.transcriptAll(parent), "user").stream()
        .filter(e -> fromSubagents(e, text))
        .toList();
  }

  private static boolean fromSubagents(JsonNode entry, String text) {
    return entry.path("kind").asString().equals("user")
        && entry.path("body").path("source").asString().equals("subagent")
        && entry.path("body").path("text").asString().contains(text);
  }

  @Test
  void agent_runInBackground_answersAtOnce_andTheResultComesLaterAsOneMessage() throws Exception {
    String parent = fixture.scripted("bg-parent", Map.of()).path("id").asString();
    JsonNode ran =
        content(
            calls(parent, "agent", single("late work", script(Map.of("say", "bg result")), true)));
    assertThat(ran.path("background").asBoolean()).isTrue();
    JsonNode agent = ran.path("agents").get(0);
    assertThat(agent.path("status").asString()).isEqualTo("running");
    String agentId = agent.path("agent_id").asString();

    List<JsonNode> delivered = messagesMentioning(parent, agentId);

    assertThat(delivered).hasSize(1);
    assertThat(delivered.get(0).path("body").path("text").asString())
        .contains("late work", "completed", "bg result");
  }

  @Test
  void agent_foregroundPastTheHandOffLimit_movesToTheBackground_andItsResultArrivesLater()
      throws Exception {
    String parent = fixture.scripted("handoff-parent", Map.of()).path("id").asString();
    JsonNode ran =
        content(
            calls(
                parent,
                "agent",
                single(
                    "slow work", script(Map.of("sleep_ms", 3000, "say", "slow result")), false)));
    assertThat(ran.path("background").asBoolean()).as("%s", ran).isTrue();
    String agentId = ran.path("agents").get(0).path("agent_id").asString();
    assertThat(ran.path("agents").get(0).path("status").asString()).isEqualTo("running");

    List<JsonNode> delivered = messagesMentioning(parent, agentId);

    assertThat(delivered).hasSize(1);
    assertThat(delivered.get(0).path("body").path("text").asString()).contains("slow result");
  }

  @Test
  void agentStop_endsTheSubagentsProcess_andDiscardsWhatItProduced() throws Exception {
    String parent = fixture.scripted("stop-parent", Map.of()).path("id").asString();
    Path pidFile = work.resolve("stopped-child.pid");
    JsonNode ran =
        content(
            calls(
                parent,
                "agent",
                single(
                    "endless work",
                    script(
                        Map.of(
                            "say",
                            "partial work",
                            "pid_file",
                            pidFile.toString(),
                            "sleep_ms",
                            600_000)),
                    true)));
    String agentId = ran.path("agents").get(0).path("agent_id").asString();
    Eventually.until(
        "the subagent's pid file", AgentServer.LIMIT, () -> Files.isRegularFile(pidFile));
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    assertThat(AgentPrograms.alive(pid)).isTrue();

    JsonNode stopped = content(calls(parent, "agent_stop", Map.of("agent_id", agentId)));

    assertThat(stopped.path("stopped").asBoolean()).as("%s", stopped).isTrue();
    assertThat(stopped.path("status").asString()).isEqualTo("stopped");
    awaitEnded(new long[] {pid});
    List<JsonNode> delivered = messagesMentioning(parent, agentId);
    assertThat(delivered).hasSize(1);
    String text = delivered.get(0).path("body").path("text").asString();
    assertThat(text).contains("stopped").doesNotContain("partial work");
    JsonNode again = content(calls(parent, "agent_stop", Map.of("agent_id", agentId)));
    assertThat(again.path("stopped").asBoolean()).isFalse();
    assertThat(again.path("status").asString()).isEqualTo("stopped");
  }

  @Test
  void agents_fromTheTerminalAndTheSessionApi_areListedShownAndStopped() throws Exception {
    String parent = fixture.scripted("cli-parent", Map.of()).path("id").asString();
    Path first = work.resolve("cli-first.pid");
    Path second = work.resolve("cli-second.pid");
    JsonNode ran =
        content(
            calls(
                parent,
                "agent",
                Map.of(
                    "parallel",
                    List.of(sleeper("by the terminal", first), sleeper("by the api", second)),
                    "run_in_background",
                    true)));
    String byTerminal = ran.path("agents").get(0).path("agent_id").asString();
    String byApi = ran.path("agents").get(1).path("agent_id").asString();
    String child = ran.path("agents").get(0).path("session_id").asString();
    Eventually.until(
        "both subagents running",
        AgentServer.LIMIT,
        () -> Files.isRegularFile(first) && Files.isRegularFile(second));
    long[] pids = {
      Long.parseLong(Files.readString(first).strip()),
      Long.parseLong(Files.readString(second).strip())
    };

    CliRun list = CliRun.run(fixture.server, "", "agents", "list", "--session", "cli-parent");
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).contains(byTerminal, byApi, child, "running", "by the terminal");
    CliRun show = CliRun.run(fixture.server, "", "agents", "show", byTerminal, "--json");
    assertThat(show.exitCode()).as(show.stderr()).isZero();
    JsonNode shown = TestJson.JSON.readTree(show.stdout());
    assertThat(shown.path("agent").path("parent_session_id").asString()).isEqualTo(parent);
    assertThat(shown.path("agent").path("session_id").asString()).isEqualTo(child);
    assertThat(shown.path("transcript").get(0).path("kind").asString()).isEqualTo("user");

    CliRun stopped = CliRun.run(fixture.server, "", "agents", "stop", byTerminal);
    assertThat(stopped.exitCode()).as(stopped.stderr()).isZero();
    var answer =
        fixture.server.post(
            "/api/subagents/stop",
            "{\"agent_id\": \"" + byApi + "\"}",
            Map.of("x-cortex-token", fixture.server.token()));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).contains("\"stopped\":true");
    awaitEnded(pids);

    List<JsonNode> told = messagesMentioning(parent, byApi);
    assertThat(told).hasSize(1);
    assertThat(told.get(0).path("body").path("text").asString())
        .contains(byTerminal, byApi, "stopped by a person");
    CliRun again = CliRun.run(fixture.server, "", "agents", "stop", byTerminal);
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).contains("ended already");
    CliRun unknown = CliRun.run(fixture.server, "", "agents", "show", "sa-000000000000");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("NOT_FOUND");
    CliRun malformed = CliRun.run(fixture.server, "", "agents", "show", "nope");
    assertThat(malformed.exitCode()).isEqualTo(1);
    assertThat(malformed.stderr()).contains("INVALID_ARGUMENT");
    var badLimit =
        fixture.server.post(
            "/api/subagents/list",
            "{\"limit\": 0}",
            Map.of("x-cortex-token", fixture.server.token()));
    assertThat(badLimit.statusCode()).isEqualTo(400);
    assertThat(badLimit.body()).contains("INVALID_ARGUMENT", "limit");
  }

  @Test
  void agent_roleOfTheAgentsTable_hasOnlyItsTools_andIsNamedAmongTheRoles() throws Exception {
    String parent = fixture.scripted("table-parent", Map.of()).path("id").asString();
    JsonNode ran =
        content(
            calls(
                parent,
                "agent",
                Map.of(
                    "description",
                    "list tools",
                    "prompt",
                    script(Map.of("list_tools", true)),
                    "subagent_type",
                    "clock-reader")));
    String child = ran.path("agents").get(0).path("session_id").asString();
    // This server hands a call off after a second: the child may still be listing.
    api.awaitIdle(child);
    List<JsonNode> transcript = api.transcript(child);
    assertThat(SessionServer.listed(transcript))
        .as("%s", transcript)
        .containsOnlyKeys("cortex-core")
        .containsValue(List.of("current_time"));

    // A parent of its own: the first may be taking the handed-off call's results.
    String other = fixture.scripted("table-parent-2", Map.of()).path("id").asString();
    JsonNode unknown =
        calls(
            other,
            "agent",
            Map.of("description", "d", "prompt", "p", "subagent_type", "no-such-role"));
    assertThat(unknown.path("body").path("content").asString())
        .contains("clock-reader", "general-purpose", "explore");
  }

  private static Map<String, Object> sleeper(String description, Path pidFile) {
    return Map.of(
        "description",
        description,
        "prompt",
        script(Map.of("pid_file", pidFile.toString(), "sleep_ms", 600_000)),
        "subagent_type",
        "general-purpose");
  }
}
