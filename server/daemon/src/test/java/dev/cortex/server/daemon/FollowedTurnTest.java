package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/** What a followed send streams, and where it stops, from the session's live events. */
class FollowedTurnTest {
  static final String REFUSAL = "The turn was not started: the overall daily budget is spent.";

  /**
   * Regression: a message queued behind a turn whose cost spent the budget went back to the queue
   * when the next turn was refused, and its follower waited for the whole follow limit.
   */
  @Test
  void follow_aQueuedMessageWhoseTurnIsRefused_endsAtOnceWithTheRefusal() throws Exception {
    Sessions.TurnEnd end =
        followQueued(
            2,
            new SessionService.Update.TurnEnded("ex-1", Execution.Status.COMPLETED, null),
            new SessionService.Update.Refused(2, "ex-2", REFUSAL),
            new SessionService.Update.TurnEnded("ex-2", Execution.Status.FAILED, REFUSAL));

    assertThat(end).isEqualTo(new Sessions.TurnEnd("ex-2", "failed", REFUSAL));
  }

  @Test
  void follow_anotherMessagesRefusal_isNotItsEnd() throws Exception {
    Sessions.TurnEnd end =
        followQueued(
            2,
            new SessionService.Update.Refused(3, "ex-2", REFUSAL),
            new SessionService.Update.Delivered(2, "ex-3"),
            new SessionService.Update.TurnEnded("ex-3", Execution.Status.COMPLETED, null));

    assertThat(end).isEqualTo(new Sessions.TurnEnd("ex-3", "completed", null));
  }

  /**
   * Follows the queued message {@code seq} (sent while the turn ex-1 ran) through {@code updates}.
   */
  static Sessions.TurnEnd followQueued(long seq, SessionService.Update... updates)
      throws InterruptedException {
    BlockingQueue<SessionService.Update> queue = new LinkedBlockingQueue<>(List.of(updates));
    FollowedTurn followed =
        new FollowedTurn(
            new JsonRoutes.Lines(new ByteArrayOutputStream()), queue, Duration.ofHours(2), 0);
    return followed.follow(new Sessions.Delivery(Sessions.Delivery.QUEUED, "ex-1", seq));
  }
}
