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
 * A server killed while a worker's turn runs, and started again: the turn is interrupted as any
 * turn is, the main session hears so in one message, the turn does not run again, and the worker
 * stays on the roster and takes new work — through a further restart too.
 */
class TeamRestartIT {
  @TempDir static Path work;

  static final Map<String, String> TEAM =
      Map.of("CORTEX_TEAM_ENABLED", "true", "CORTEX_TEAM_CLI", "true");

  @Test
  void restart_whileAWorkerRuns_tellsTheMainOnce_runsNothingTwice_andKeepsTheWorker(
      @TempDir Path home) throws Exception {
    AgentServer server = new AgentServer(home, TEAM).start();
    try (server;
        SessionApi api = new SessionApi(server)) {
      String lead =
          api.create(ScriptedAgent.command(), work, Map.of("name", "restarted-lead"))
              .path("id")
              .asString();
      Path pidFile = work.resolve("restarted-worker.pid");
      String prompt = script(Map.of("pid_file", pidFile.toString(), "sleep_ms", 600_000));
      SessionApi.Answer answer =
          api.follow(
              lead,
              script(
                  Map.of(
                      "calls",
                      List.of(call("worker_spawn", Map.of("name", "slow", "prompt", prompt))))));
      assertThat(answer.result().path("status").asString()).isEqualTo("completed");
      JsonNode spawned = content(ofKind(api.transcript(lead), "tool_result").get(0));
      String workerId = spawned.path("worker").path("worker_id").asString();
      String worker = spawned.path("worker").path("session_id").asString();
      Eventually.until("the worker running", AgentServer.LIMIT, () -> Files.exists(pidFile));
      long pid = Long.parseLong(Files.readString(pidFile).strip());

      server.process.destroyForcibly().waitFor();
      Eventually.until(
          "the killed server's worker ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(pid));
      Files.delete(pidFile);
      server.start();

      api.awaitEntry(
          lead,
          e ->
              reportOf(e, workerId)
                  && e.path("body").path("text").asString().contains("interrupted"),
          "the interrupted turn reported to the main session");
      api.awaitIdle(lead);
      assertThat(reports(api, lead, workerId)).hasSize(1);
      assertThat(api.executionsOf(worker)).hasSize(1);
      assertThat(api.executionsOf(worker).get(0).path("status").asString()).isEqualTo("stale");
      assertThat(Files.exists(pidFile)).as("the worker's turn did not run again").isFalse();

      assertThat(server.stop()).isEqualTo(143);
      server.start();
      api.awaitIdle(lead);
      assertThat(reports(api, lead, workerId)).hasSize(1);
      assertThat(api.executionsOf(worker)).hasSize(1);

      // The worker is still the team's, and works.
      api.follow(
          lead,
          script(
              Map.of(
                  "calls",
                  List.of(
                      call(
                          "worker_send",
                          Map.of("worker", "slow", "message", script(Map.of("say", "back"))))))));
      api.awaitEntry(
          lead,
          e -> reportOf(e, workerId) && e.path("body").path("text").asString().contains("back"),
          "the worker's next report");
      api.awaitIdle(lead);
      assertThat(reports(api, lead, workerId)).hasSize(2);
    }
  }

  private static boolean reportOf(JsonNode entry, String workerId) {
    return entry.path("kind").asString().equals("user")
        && entry.path("body").path("source").asString().equals("worker")
        && entry.path("body").path("text").asString().contains(workerId);
  }

  private static List<JsonNode> reports(SessionApi api, String lead, String workerId)
      throws Exception {
    return api.transcriptAll(lead).stream().filter(e -> reportOf(e, workerId)).toList();
  }
}
