package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.awaitEnded;
import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
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

  static SessionServer fixture;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        SessionServer.start(
            home, work, null, Map.of("CORTEX_TEST_SUBAGENT_HANDOFF_SECONDS", "1"), null);
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
}
