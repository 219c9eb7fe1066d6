package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static dev.cortex.testing.SessionApi.kinds;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Where a message goes: injected into the running turn, queued for the next one when the turn takes
 * no input, and turns of two sessions at the same time.
 */
class DeliveryIT extends OnOneServer {
  @Test
  void send_whileATurnRuns_isInjectedIntoIt() throws Exception {
    String id = fixture.scripted("injected", Map.of()).path("id").asString();
    JsonNode first =
        api.send(id, script(Map.of("say", "waiting", "await_inject", 1, "echo_injected", true)));
    assertThat(first.path("status").asString()).isEqualTo("started");
    api.awaitEntry(id, said("waiting"), "the agent waiting");

    JsonNode second = api.send(id, "and goodbye");

    assertThat(second.path("status").asString()).isEqualTo("injected");
    assertThat(second.path("execution_id").asString())
        .isEqualTo(first.path("execution_id").asString());
    api.awaitEntry(id, said("injected: and goodbye"), "the injected message said back");
    api.awaitIdle(id);
    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript)).containsExactly("user", "assistant", "user", "assistant");
    assertThat(transcript.get(2).path("body").path("text").asString()).isEqualTo("and goodbye");
    assertThat(transcript)
        .allSatisfy(
            e ->
                assertThat(e.path("execution_id").asString())
                    .isEqualTo(first.path("execution_id").asString()));
    assertThat(api.executionsOf(id)).hasSize(1);
    assertThat(api.execution(first.path("execution_id").asString()).path("output").asString())
        .isEqualTo("injected: and goodbye");
  }

  @Test
  void send_toATurnThatTakesNoInjection_isQueued_andTheNextTurnTakesEachOnce() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.hold), work, Map.of("name", "queueing"))
            .path("id")
            .asString();
    JsonNode first = api.send(id, "hold:queue-release");
    api.awaitEntry(id, said("holding"), "the first turn holding");

    JsonNode a = api.send(id, "message a");
    JsonNode b = api.send(id, "message b");

    assertThat(a.path("status").asString()).isEqualTo("queued");
    assertThat(b.path("status").asString()).isEqualTo("queued");
    assertThat(b.path("inbox_seq").asLong()).isGreaterThan(a.path("inbox_seq").asLong());
    assertThat(api.show(id).path("running_execution").asString())
        .isEqualTo(first.path("execution_id").asString());
    programs.release("queue-release");
    Eventually.until("the second turn", AgentServer.LIMIT, () -> fixture.turns(id) == 2);
    api.awaitIdle(id);
    List<String> turns = programs.turns(id);
    assertThat(turns).hasSize(2);
    assertThat(TestJson.JSON.readTree(turns.get(1)).path("prompt").asString())
        .isEqualTo("message a\n\nmessage b");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(SessionApi.userTexts(transcript))
        .containsExactly("hold:queue-release", "message a", "message b");
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions).hasSize(2);
    assertThat(executions)
        .allSatisfy(e -> assertThat(e.path("status").asString()).isEqualTo("completed"));
    String next = executions.get(0).path("id").asString();
    assertThat(ofKind(transcript, "user").subList(1, 3))
        .allSatisfy(e -> assertThat(e.path("execution_id").asString()).isEqualTo(next));
  }

  /**
   * Messages sent as a command turn ends used to be lost: sent after the program printed its end
   * but before the server read it, they were answered injected, recorded, written to an input
   * nobody read, and never given to a later turn. A message counts as delivered only once the
   * program acknowledged it; the rest go back to the queue for the next turn.
   */
  @Test
  void send_asACommandTurnEnds_reachesTheAgentOnce_inThisTurnOrTheNext() throws Exception {
    String id = fixture.logged("ending", true);
    String flooding =
        api.send(id, script(Map.of("say", "ready", "await_inject", 1, "flood", 1200)))
            .path("execution_id")
            .asString();
    api.awaitEntry(id, said("ready"), "the agent waiting");

    List<String> sent = new ArrayList<>();
    for (int i = 1; i <= 9; i++) {
      sent.add("ending " + i);
    }

    List<JsonNode> answers = fixture.sendPaced(id, sent, Duration.ofMillis(25));

    fixture.awaitEachOnce(id, sent, answers);
    assertThat(answers.get(0).path("status").asString())
        .as(() -> "the message the turn waits for: " + fixture.diagnosis(id, answers))
        .isEqualTo("injected");
    assertThat(answers.get(0).path("execution_id").asString()).isEqualTo(flooding);
    assertThat(ofKind(api.transcript(id), "user"))
        .as(
            () ->
                "the flooding turn takes its prompt and one message: "
                    + fixture.diagnosis(id, answers))
        .filteredOn(e -> e.path("execution_id").asString().equals(flooding))
        .hasSize(2);
  }

  /**
   * A program that never said it acknowledges (protocol 1) gets no message while its turn runs:
   * each waits in the queue and the next turn takes it, once.
   */
  @Test
  void send_toAProgramThatDoesNotAcknowledge_waitsForTheNextTurn() throws Exception {
    String id = fixture.logged("no-acks", false);
    JsonNode first = api.send(id, script(Map.of("say", "ready", "sleep_ms", 600_000)));
    api.awaitEntry(id, said("ready"), "the agent sleeping");

    JsonNode a = api.send(id, "no-acks a");
    JsonNode b = api.send(id, "no-acks b");

    assertThat(a.path("status").asString()).isEqualTo("queued");
    assertThat(b.path("status").asString()).isEqualTo("queued");
    assertThat(api.call("stop", Map.of("session", id)).result().path("stopped").asBoolean())
        .isTrue();
    fixture.awaitEachOnce(id, List.of("no-acks a", "no-acks b"));
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions).hasSize(2);
    String next = executions.get(0).path("id").asString();
    assertThat(next).isNotEqualTo(first.path("execution_id").asString());
    assertThat(ofKind(api.transcript(id), "user").subList(1, 3))
        .allSatisfy(e -> assertThat(e.path("execution_id").asString()).isEqualTo(next));
  }

  @Test
  void twoSessions_onTwoChannels_runTurnsAtTheSameTime() throws Exception {
    String a = fixture.scripted("pair-a", Map.of()).path("id").asString();
    String b = fixture.scripted("pair-b", Map.of()).path("id").asString();
    String waiting = script(Map.of("say", "ready", "await_inject", 1, "echo_injected", true));

    api.send(a, waiting);
    api.send(b, waiting);
    api.awaitEntry(a, said("ready"), "a ready");
    api.awaitEntry(b, said("ready"), "b ready");

    JsonNode shownA = api.show(a);
    JsonNode shownB = api.show(b);
    assertThat(shownA.path("state").asString()).isEqualTo("running");
    assertThat(shownB.path("state").asString()).isEqualTo("running");
    assertThat(shownA.path("channel").asString()).isEqualTo("cli:pair-a");
    assertThat(shownB.path("channel").asString()).isEqualTo("cli:pair-b");
    assertThat(api.send(a, "go a").path("status").asString()).isEqualTo("injected");
    assertThat(api.send(b, "go b").path("status").asString()).isEqualTo("injected");
    api.awaitIdle(a);
    api.awaitIdle(b);
    assertThat(api.transcript(a))
        .anyMatch(said("injected: go a"))
        .noneMatch(said("injected: go b"));
    assertThat(api.transcript(b))
        .anyMatch(said("injected: go b"))
        .noneMatch(said("injected: go a"));
  }
}
