package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * An acknowledgement the program prints as its turn is stopped counts: the stop lets the output the
 * program printed before it ended be read first. A stop used to end the turn at once, so that an
 * {@code ack} still in the pipe was dropped and the message offered again in the next turn.
 */
class StopAckTest extends WithService {
  /**
   * Says it acknowledges, reads its turn line, and, told to end, says a thousand lines and then
   * acknowledges its message: the acknowledgement is still to be read when the program is gone. A
   * second signal while it ends (a stop that took long to be heeded signals again) is ignored, so
   * that it says the thousand lines once.
   */
  static final String ACKS_AS_IT_ENDS =
      """
      echo '{"type":"hello","protocol":2,"capabilities":["ack"]}'
      read -r line
      printf '%s\\n' "$line" >> "$dir/$CORTEX_SESSION_ID.turns"
      ending() {
        trap '' TERM
        i=0
        while [ $i -lt 1000 ]; do echo '{"type":"text","text":"wrapping up"}'; i=$((i+1)); done
        echo '{"type":"ack","id":"1"}'
        exit 0
      }
      trap ending TERM
      echo '{"type":"text","text":"working"}'
      while :; do sleep 0.05; done
      """;

  @Test
  void stop_whileTheProgramAcknowledgesAsItEnds_theMessageIsDelivered_andNotOfferedAgain()
      throws Exception {
    Session session = session("acks-as-it-ends", ACKS_AS_IT_ENDS);
    BlockingQueue<SessionService.Update> updates = follow(session);
    Path turns = work.resolve(session.id() + ".turns");
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "working");
    Eventually.until("the program read its turn line", () -> Files.exists(turns));

    assertThat(sessions.stop(session.id(), "asked")).isTrue();

    SessionService.Update.TurnEnded end = awaitEnd(updates, first.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.CANCELLED);
    assertThat(store.inbox().state(session.id(), 1)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(
            sessions.transcript(session.id(), 0, 2_000).stream()
                .map(Transcript.Entry::body)
                .toList())
        .hasSize(1_003)
        .containsOnlyOnce("{\"text\":\"first\",\"source\":\"person\"}");
    assertThat(sessions.runningExecution(session.id())).as("nothing left to offer").isNull();
  }
}
