package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.awaitEnded;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A turn that runs past {@code max_turn} (at its minimum, one minute) is stopped with its whole
 * process group and fails. The server runs on the test clock ({@code cortex.test.clockOffsetFile}):
 * the test moves it past the minute instead of waiting one out. Its server is its own, so that no
 * other test sees its clock jump.
 */
class MaxTurnIT {
  @TempDir static Path home;
  @TempDir static Path work;
  static SessionServer fixture;

  @BeforeAll
  static void start() throws Exception {
    fixture = SessionServer.start(home, work, "[sessions]\nmax_turn = \"1m\"\n", Map.of(), null);
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void hungProgram_isStoppedAtMaxTurnByTheClock_withItsWholeGroup_andTheTurnFails()
      throws Exception {
    SessionApi api = fixture.api;
    AgentPrograms programs = fixture.programs;
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "hung"))
            .path("id")
            .asString();
    String execution =
        api.send(id, "ignore-term: a turn that never ends").path("execution_id").asString();
    api.awaitEntry(id, said("working"), "the turn working");
    long[] pids = programs.pids(id);
    assertThat(api.execution(execution).path("status").asString()).isEqualTo("running");

    fixture.server.advanceClock(Duration.ofMinutes(1).plusSeconds(1));

    JsonNode[] record = new JsonNode[1];
    Eventually.until(
        "the hung turn to reach max_turn",
        AgentServer.LIMIT,
        () -> {
          record[0] = api.execution(execution);
          return !record[0].path("status").asString().equals("running");
        });
    assertThat(record[0].path("status").asString()).isEqualTo("failed");
    assertThat(record[0].path("error").asString())
        .isEqualTo("The turn was stopped: it ran longer than max_turn (1 min).");
    awaitEnded(pids);
    List<JsonNode> transcript = api.transcript(id);
    assertThat(transcript.get(transcript.size() - 1).path("body").path("text").asString())
        .isEqualTo(record[0].path("error").asString());
    assertThat(api.show(id).path("running_execution").isNull()).isTrue();
    assertThat(api.follow(id, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }
}
