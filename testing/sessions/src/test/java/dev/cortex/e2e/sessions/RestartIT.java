package dev.cortex.e2e.sessions;

import static dev.cortex.testing.SessionApi.kinds;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A server killed in the middle of a turn, and started again: the turn is interrupted, and the
 * messages that waited are delivered once.
 */
class RestartIT {
  @TempDir static Path work;
  static AgentPrograms programs;

  @BeforeAll
  static void writePrograms() throws Exception {
    programs = AgentPrograms.write(work);
  }

  @Test
  void restart_afterTheServerWasKilledMidTurn_theTurnIsInterrupted_andWaitingMessagesComeOnce(
      @TempDir Path otherHome) throws Exception {
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      String id =
          otherApi
              .create(AgentPrograms.run(programs.hold), work, Map.of("name", "in-flight"))
              .path("id")
              .asString();
      String done =
          otherApi
              .create(ScriptedAgent.command(), work, Map.of("name", "finished-before"))
              .path("id")
              .asString();
      assertThat(otherApi.follow(done, "said before the kill").result().path("status").asString())
          .isEqualTo("completed");
      List<JsonNode> doneBefore = otherApi.transcript(done);
      String first = otherApi.send(id, "hold:never-released").path("execution_id").asString();
      otherApi.awaitEntry(id, said("holding"), "the turn holding");
      long program = programs.pid(id);
      assertThat(otherApi.send(id, "after the kill").path("status").asString()).isEqualTo("queued");

      other.process.destroyForcibly().waitFor();
      // The dead server's groups are ended by its watcher, not left behind.
      Eventually.until(
          "the killed server's turn ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(program));
      other.start();

      Eventually.until(
          "the waiting message's turn", AgentServer.LIMIT, () -> programs.turns(id).size() == 2);
      otherApi.awaitIdle(id);
      assertThat(TestJson.JSON.readTree(programs.turns(id).get(1)).path("prompt").asString())
          .isEqualTo("after the kill");
      JsonNode interrupted = otherApi.execution(first);
      assertThat(interrupted.path("status").asString()).isEqualTo("stale");
      assertThat(interrupted.path("ended_at").isString()).isTrue();
      List<JsonNode> executions = otherApi.executionsOf(id);
      assertThat(executions).hasSize(2);
      assertThat(executions.get(0).path("status").asString()).isEqualTo("completed");
      List<JsonNode> transcript = otherApi.transcript(id);
      assertThat(kinds(transcript))
          .containsExactly("user", "assistant", "system", "user", "assistant");
      assertThat(transcript.get(2).path("body").path("text").asString())
          .isEqualTo("The turn was interrupted: the agent server stopped while it ran.");
      assertThat(SessionApi.userTexts(transcript))
          .containsExactly("hold:never-released", "after the kill");
      assertThat(transcript.get(3).path("execution_id").asString())
          .isEqualTo(executions.get(0).path("id").asString());
      assertThat(otherApi.transcript(done)).isEqualTo(doneBefore);
      assertThat(otherApi.show(done).path("state").asString()).isEqualTo("idle");

      // Once delivered, a message is not delivered again by the next start.
      assertThat(other.stop()).isEqualTo(143);
      other.start();
      assertThat(otherApi.follow(id, "quick check").result().path("status").asString())
          .isEqualTo("completed");
      assertThat(programs.turns(id)).hasSize(3);
      assertThat(SessionApi.userTexts(otherApi.transcript(id)))
          .containsExactly("hold:never-released", "after the kill", "quick check");
      assertThat(otherApi.executionsOf(id)).hasSize(3);
    }
  }

  /**
   * A message the running turn was given but had not acknowledged when the server was killed used
   * to be lost: recorded as delivered to a turn that never read it, and never offered again. Its
   * state survives the kill: the next start puts it back at the head of the queue and a new turn
   * gets it, once.
   */
  @Test
  void restart_afterAKillBeforeTheAgentAcknowledged_aNewTurnGetsTheMessageOnce(
      @TempDir Path otherHome) throws Exception {
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      String id =
          otherApi
              .create(AgentPrograms.run(programs.logged), work, Map.of("name", "unacknowledged"))
              .path("id")
              .asString();
      String first =
          otherApi
              .send(
                  id,
                  TestJson.JSON.writeValueAsString(
                      Map.of("say", "ready", "await_inject", 1, "ack_delay_ms", 600_000)))
              .path("execution_id")
              .asString();
      otherApi.awaitEntry(id, said("ready"), "the turn waiting");
      JsonNode offered = otherApi.send(id, "given, not acknowledged");
      assertThat(offered.path("status").asString()).isEqualTo("offered");
      assertThat(offered.path("execution_id").asString()).isEqualTo(first);

      other.process.destroyForcibly().waitFor();
      other.start();

      Eventually.until(
          "the message taken by a new turn",
          AgentServer.LIMIT,
          () -> programs.taken(id).contains("given, not acknowledged"));
      otherApi.awaitIdle(id);
      assertThat(programs.taken(id)).containsOnlyOnce("given, not acknowledged");
      List<JsonNode> transcript = otherApi.transcript(id);
      List<JsonNode> users =
          transcript.stream().filter(e -> e.path("kind").asString().equals("user")).toList();
      assertThat(SessionApi.userTexts(transcript)).containsOnlyOnce("given, not acknowledged");
      assertThat(users.get(users.size() - 1).path("execution_id").asString()).isNotEqualTo(first);
      assertThat(otherApi.execution(first).path("status").asString()).isEqualTo("stale");
    }
  }
}
