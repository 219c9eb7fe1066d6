package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.script;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Repeated;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Delivery under load, the way its losses were found, on one server: messages sent as a command
 * turn ends (a program that prints 1,200 lines and ends right after its first injected message,
 * nine messages sent 25 ms apart), and bursts of ten sends at once to one session. Every message is
 * counted where the agent took it (its log, {@code AgentPrograms.logged}) and in the transcript:
 * each exactly once, none lost, in the order the server numbered them, and each send's answer says
 * truly which turn took its message. A failure prints the answers, the offers and acknowledgements
 * as the agent saw them, the user entries and the turns.
 *
 * <p>Each loop runs its iteration count ({@link #RACES}, {@link #BURSTS}) or stops once {@link
 * #CAP} has passed, whichever comes first, and fails when fewer than {@link #AT_LEAST} ran: 720 and
 * 1,000 messages when the machine keeps up. The race must show at least once (a message the ending
 * turn did not take), or the loop did not test it.
 */
class DeliveryStressIT {
  /** Iterations of the end-of-turn race, nine messages each. */
  static final int RACES = 80;

  /** Iterations of the bursts, ten messages each. */
  static final int BURSTS = 100;

  /** The most time one loop takes. */
  static final Duration CAP = Duration.ofMinutes(3);

  /** The fewest iterations a loop must run within its cap. */
  static final int AT_LEAST = 5;

  @TempDir static Path home;
  @TempDir static Path work;

  static SessionServer fixture;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture = SessionServer.start(home, work);
    api = fixture.api;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void endOfTurnRace_messagesSentAsTheTurnEnds_eachReachTheAgentOnce() throws Exception {
    AtomicInteger raced = new AtomicInteger();
    int ran =
        Repeated.upTo(
            RACES,
            CAP,
            AT_LEAST,
            "the end-of-turn race",
            i -> {
              String id = fixture.logged("race-" + i, true);
              String flooding =
                  api.send(id, script(Map.of("say", "ready", "await_inject", 1, "flood", 1200)))
                      .path("execution_id")
                      .asString();
              api.awaitEntry(id, said("ready"), "the agent waiting");
              List<String> sent = texts("race " + i, 9);

              List<JsonNode> answers = fixture.sendPaced(id, sent, Duration.ofMillis(25));

              fixture.awaitEachOnce(id, sent, answers);
              if (api.transcriptAll(id).stream()
                  .anyMatch(
                      e ->
                          e.path("kind").asString().equals("user")
                              && !e.path("execution_id").asString().equals(flooding))) {
                raced.incrementAndGet();
              }
            });
    System.err.println(
        "the end-of-turn race: "
            + raced
            + " of "
            + ran
            + " iterations had a message the ending"
            + " turn did not take");
    assertThat(raced.get()).as("iterations that hit the race").isPositive();
  }

  @Test
  void bursts_tenSendsAtOnce_eachReachTheAgentOnce() throws Exception {
    String id = fixture.logged("bursts", true);
    List<String> all = new ArrayList<>();
    List<JsonNode> answered = new ArrayList<>();
    Repeated.upTo(
        BURSTS,
        CAP,
        AT_LEAST,
        "bursts of ten sends",
        i -> {
          List<String> sent = texts("burst " + i, 10);
          all.addAll(sent);

          answered.addAll(fixture.sendPaced(id, sent, Duration.ZERO));

          fixture.awaitEachOnce(id, all, answered);
        });
  }

  /** {@code count} messages: PREFIX.1, PREFIX.2, ... */
  static List<String> texts(String prefix, int count) {
    List<String> texts = new ArrayList<>();
    for (int j = 1; j <= count; j++) {
      texts.add(prefix + "." + j);
    }
    return texts;
  }
}
