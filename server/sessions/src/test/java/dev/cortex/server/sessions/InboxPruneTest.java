package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** The housekeeping's sweep forgets delivered messages after the retention, by the clock. */
class InboxPruneTest extends WithService {
  @Test
  void sweep_pastTheRetention_forgetsDeliveredMessages_butTheSessionsLast() throws Exception {
    Session session =
        session(
            "short",
            """
            read -r line
            echo '{"type":"end","status":"completed","result":"done"}'
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    awaitEnd(updates, sessions.send(session.id(), "first", "person").executionId());
    awaitEnd(updates, sessions.send(session.id(), "second", "person").executionId());
    sessions.sweep();
    assertThat(store.inbox().state(session.id(), 1)).isEqualTo(Inbox.State.DELIVERED);

    clock.advance(SessionService.DELIVERED_KEPT.plus(Duration.ofDays(1)));
    sessions.sweep();

    assertThat(store.inbox().state(session.id(), 1)).isNull();
    assertThat(store.inbox().state(session.id(), 2)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(sessions.transcript(session.id(), 0, 100)).hasSizeGreaterThanOrEqualTo(2);
  }
}
