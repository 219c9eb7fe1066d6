package dev.cortex.e2e.waitpoints;

import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Repeated;
import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A wake's delivery under a kill -9 of the server right after the signal was answered, looped: the
 * session's running turn takes its wakes after a delay that varies from one iteration to the next
 * (none, around the moment of the kill, long after it), so that the kill falls before the agent's
 * acknowledgement, after it, and in between. Every wake is counted where the agent took it and in
 * the transcript: each exactly once.
 *
 * <p>The loop runs {@link #KILLS} iterations (one mailbox waitpoint, one signal each) or stops once
 * {@link #CAP} has passed, whichever comes first, and fails when fewer than {@link #AT_LEAST} ran.
 */
class WakeDeliveryStressIT {
  /** Iterations: one signal, one kill and one restart each. */
  static final int KILLS = 40;

  /** The most time the loop takes. */
  static final Duration CAP = Duration.ofMinutes(4);

  /** The fewest iterations the loop must run within its cap. */
  static final int AT_LEAST = 4;

  /** How long the agent waits before it takes a wake, by iteration (in turn). */
  static final List<Integer> ACK_DELAYS_MS = List.of(0, 3, 15, 60, 250, 600_000);

  @TempDir Path home;
  @TempDir Path work;

  @Test
  void kill9_rightAfterTheSignalsAnswer_eachWakeReachesTheAgentOnce() throws Exception {
    String settings = "[waitpoints]\ncoalesce = \"0s\"\nmax_wakes_per_hour = 1000\n";
    try (WakeServer wakes = new WakeServer(home, work, settings)) {
      String id = wakes.session("killed-often");
      JsonNode mailbox =
          wakes.waitpoint(
              id, Map.of("label", "epochs", "intent", "watch the loss", "max_signals", KILLS));
      List<String> marks = new ArrayList<>();
      AtomicInteger later = new AtomicInteger();
      int ran =
          Repeated.upTo(
              KILLS,
              CAP,
              AT_LEAST,
              "kill -9 after a signal's answer",
              i -> {
                int delay = ACK_DELAYS_MS.get((i - 1) % ACK_DELAYS_MS.size());
                String running =
                    wakes
                        .api
                        .send(
                            id,
                            TestJson.JSON.writeValueAsString(
                                Map.of(
                                    "say", "ready " + i, "await_inject", 1, "ack_delay_ms", delay)))
                        .path("execution_id")
                        .asString();
                wakes.api.awaitEntry(id, said("ready " + i), "turn " + i + " waiting");
                String mark = String.format("mark-%03d", i);
                marks.add(mark);

                HttpResponse<String> answer = wakes.signal(mailbox, null, mark);
                wakes.killAndRestart();

                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                wakes.awaitWakesOnce(id, marks);
                if (!wakes.wakeExecution(id, mark).equals(running)) {
                  later.incrementAndGet();
                }
              });
      System.err.println(
          "kill -9 after a signal's answer: "
              + later
              + " of "
              + ran
              + " wakes came in a turn after the restart");
      assertThat(later.get()).as("wakes the kill cut off before the agent took them").isPositive();
    }
  }
}
