package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A server killed while a subagent runs, and started again: the subagent is interrupted as a turn
 * is (its process gone, its child session's turn stale), its parent hears so in one message, and
 * nothing runs twice, through a further restart too.
 */
class SubagentsRestartIT {
  @TempDir static Path work;

  @Test
  void restart_whileASubagentRuns_marksItInterrupted_tellsTheParentOnce_andRunsNothingTwice(
      @TempDir Path home) throws Exception {
    AgentServer server = new AgentServer(home, Map.of()).start();
    try (server;
        SessionApi api = new SessionApi(server)) {
      String parent =
          api.create(ScriptedAgent.command(), work, Map.of("name", "restarted-parent"))
              .path("id")
              .asString();
      Path pidFile = work.resolve("restarted-child.pid");
      String prompt = script(Map.of("pid_file", pidFile.toString(), "sleep_ms", 600_000));
      SessionApi.Answer answer =
          api.follow(
              parent,
              script(
                  Map.of(
                      "calls",
                      List.of(
                          call(
                              "agent",
                              Map.of(
                                  "description",
                                  "long work",
                                  "prompt",
                                  prompt,
                                  "subagent_type",
                                  "general-purpose",
                                  "run_in_background",
                                  true))))));
      assertThat(answer.result().path("status").asString()).isEqualTo("completed");
      JsonNode agent = content(ofKind(api.transcript(parent), "tool_result").get(0));
      String agentId = agent.path("agents").get(0).path("agent_id").asString();
      String child = agent.path("agents").get(0).path("session_id").asString();
      Eventually.until("the subagent running", AgentServer.LIMIT, () -> Files.exists(pidFile));
      long pid = Long.parseLong(Files.readString(pidFile).strip());

      server.process.destroyForcibly().waitFor();
      Eventually.until(
          "the killed server's subagent ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(pid));
      Files.delete(pidFile);
      server.start();

      List<JsonNode> told = awaitMessages(api, parent, agentId);
      assertThat(told).hasSize(1);
      assertThat(told.get(0).path("body").path("text").asString())
          .contains("long work", "interrupted");
      List<JsonNode> turns = api.executionsOf(child);
      assertThat(turns).hasSize(1);
      assertThat(turns.get(0).path("status").asString()).isEqualTo("stale");
      assertThat(Files.exists(pidFile)).as("the subagent did not run again").isFalse();

      assertThat(server.stop()).isEqualTo(143);
      server.start();
      api.awaitIdle(parent);
      assertThat(api.follow(parent, "still here").result().path("status").asString())
          .isEqualTo("completed");
      assertThat(messages(api, parent, agentId)).hasSize(1);
      assertThat(api.executionsOf(child)).hasSize(1);
    }
  }

  @Test
  void stop_whileASubagentRuns_interruptsIt_andTheParentHearsOnceAfterTheNextStart(
      @TempDir Path home) throws Exception {
    AgentServer server = new AgentServer(home, Map.of()).start();
    try (server;
        SessionApi api = new SessionApi(server)) {
      String parent =
          api.create(ScriptedAgent.command(), work, Map.of("name", "stopped-parent"))
              .path("id")
              .asString();
      Path pidFile = work.resolve("stopped-server-child.pid");
      String prompt = script(Map.of("pid_file", pidFile.toString(), "sleep_ms", 600_000));
      api.follow(
          parent,
          script(
              Map.of(
                  "calls",
                  List.of(
                      call(
                          "agent",
                          Map.of(
                              "description",
                              "cut short",
                              "prompt",
                              prompt,
                              "subagent_type",
                              "general-purpose",
                              "run_in_background",
                              true))))));
      String agentId =
          content(ofKind(api.transcript(parent), "tool_result").get(0))
              .path("agents")
              .get(0)
              .path("agent_id")
              .asString();
      Eventually.until("the subagent running", AgentServer.LIMIT, () -> Files.exists(pidFile));
      long pid = Long.parseLong(Files.readString(pidFile).strip());

      assertThat(server.stop()).isEqualTo(143);
      assertThat(AgentPrograms.alive(pid)).isFalse();
      server.start();

      List<JsonNode> told = awaitMessages(api, parent, agentId);
      assertThat(told).hasSize(1);
      assertThat(told.get(0).path("body").path("text").asString())
          .contains("cut short", "interrupted");
    }
  }

  private static List<JsonNode> awaitMessages(SessionApi api, String parent, String agentId)
      throws Exception {
    api.awaitEntry(
        parent,
        e ->
            e.path("body").path("source").asString().equals("subagent")
                && e.path("body").path("text").asString().contains(agentId),
        "the subagent's end told to its parent");
    api.awaitIdle(parent);
    return messages(api, parent, agentId);
  }

  private static List<JsonNode> messages(SessionApi api, String parent, String agentId)
      throws Exception {
    return ofKind(api.transcriptAll(parent), "user").stream()
        .filter(
            e ->
                e.path("body").path("source").asString().equals("subagent")
                    && e.path("body").path("text").asString().contains(agentId))
        .toList();
  }
}
