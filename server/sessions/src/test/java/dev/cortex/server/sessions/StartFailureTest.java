package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Session;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A backend that breaks as a turn starts ends the turn failed with a sentence. The exception's own
 * text (its class name, the internals it names) went into the transcript and the execution.
 */
class StartFailureTest extends WithService {
  @Test
  void send_backendThatThrowsAsItStarts_failsTheTurnWithASentence_notTheException()
      throws Exception {
    sessions.close();
    Backend broken =
        new Backend() {
          @Override
          public String name() {
            return CommandBackend.NAME;
          }

          @Override
          public RunningTurn start(TurnRequest request, TurnEvents events) {
            throw new IllegalStateException("dev.cortex.internal.Table at /srv/secret/path");
          }
        };
    sessions = service(new AckWaits(SessionService.MAX_ACK_WAITS, SessionService.ACK_WAIT), broken);
    Session session = session("broken", "exit 0\n");
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery sent = sessions.send(session.id(), "hello", "person");

    SessionService.Update.TurnEnded end = awaitEnd(updates, sent.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(end.error()).isEqualTo(Turns.COULD_NOT_START);
    assertThat(bodies(session))
        .noneMatch(b -> b.contains("IllegalStateException") || b.contains("/srv/secret"))
        .anyMatch(b -> b.contains(Turns.COULD_NOT_START));
    assertThat(executions.get(sent.executionId()).error()).isEqualTo(Turns.COULD_NOT_START);
  }
}
