package dev.cortex.e2e.waitpoints;

import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * How a wake enters its session: as a message of the session, delivered once its turn's agent
 * acknowledged it. Each test has a server of its own, killed and started again.
 */
class WakeDeliveryIT {
  @TempDir Path home;
  @TempDir Path work;

  /**
   * A kill -9 of the server right after a signal's answer used to lose the wake: it was injected
   * into a turn the kill cut off before the agent read it, and after the restart it was never
   * offered again. It was only offered; the restart offers it again, and a new turn gets it once.
   */
  @Test
  void wake_killedAfterTheSignalsAnswerBeforeTheAgentTookIt_comesOnceAfterTheRestart()
      throws Exception {
    try (WakeServer wakes = new WakeServer(home, work, "[waitpoints]\ncoalesce = \"0s\"\n")) {
      String id = wakes.session("killed-before-ack");
      JsonNode waitpoint = wakes.waitpoint(id, Map.of("label", "build", "intent", "read it"));
      wakes.api.send(
          id,
          TestJson.JSON.writeValueAsString(
              Map.of("say", "ready", "await_inject", 1, "ack_delay_ms", 600_000)));
      wakes.api.awaitEntry(id, said("ready"), "the turn waiting");

      HttpResponse<String> answer = wakes.signal(waitpoint, null, "mark-killed");
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      assertThat(answer.body()).contains("was handed it in its running turn");
      wakes.killAndRestart();

      wakes.awaitWakesOnce(id, List.of("mark-killed"));
    }
  }

  /**
   * Wakes in a burst after a restart (several waitpoints whose quorum was reached before a kill,
   * due at the same tick) used to be lost like messages sent as a turn ends: the running turn took
   * the first and ended, and the others, injected into it as it ended, never reached the agent.
   * Each reaches the agent once.
   */
  @Test
  void wakes_inABurstAfterARestart_eachReachTheAgentOnce() throws Exception {
    String settings = "[waitpoints]\ncoalesce = \"60s\"\nmax_wakes_per_hour = 100\n";
    try (WakeServer wakes = new WakeServer(home, work, settings)) {
      String id = wakes.session("burst-after-restart");
      List<String> marks = new ArrayList<>();
      for (int i = 1; i <= 6; i++) {
        JsonNode waitpoint =
            wakes.waitpoint(
                id, Map.of("label", "shard " + i, "intent", "merge", "members", List.of("a", "b")));
        String mark = "mark-burst-" + i;
        marks.add(mark);
        assertThat(wakes.signal(waitpoint, "a", mark).statusCode()).isEqualTo(200);
        assertThat(wakes.signal(waitpoint, "b", mark).statusCode()).isEqualTo(200);
      }
      assertThat(wakes.wakes(id)).as("all within the coalescing window").isEmpty();

      wakes.killAndRestart();
      wakes.api.send(
          id,
          TestJson.JSON.writeValueAsString(
              Map.of("say", "ready", "await_inject", 1, "flood", 1200)));
      wakes.api.awaitEntry(id, said("ready"), "the turn waiting");
      wakes.server.advanceClock(Duration.ofSeconds(60));

      wakes.awaitWakesOnce(id, marks);
    }
  }
}
