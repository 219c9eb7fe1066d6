package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Session;
import java.nio.file.Files;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A wake of a key sent before is not sent again; its answer says where the first stands, as the
 * inbox has it. A repeat used to be answered {@code delivered} even while the first still waited.
 */
class WakeKeysTest extends WithService {
  @Test
  void wake_repeatOfAQueuedOne_isAnsweredQueued() throws Exception {
    Session session = session("holding", holding("holding-release"));
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "holding");
    SessionService.Delivery woken = sessions.wake(session.id(), "done", "waitpoint", "wp-1:1");

    SessionService.Delivery again = sessions.wake(session.id(), "done", "waitpoint", "wp-1:1");

    assertThat(woken.status()).isEqualTo(SessionService.QUEUED);
    assertThat(again)
        .isEqualTo(
            new SessionService.Delivery(
                SessionService.QUEUED, first.executionId(), woken.inboxSeq()));
    Files.writeString(work.resolve("holding-release"), "");
    SessionService.Update.Delivered taken =
        await(updates, SessionService.Update.Delivered.class, "the wake taken");
    assertThat(sessions.wake(session.id(), "done", "waitpoint", "wp-1:1"))
        .isEqualTo(
            new SessionService.Delivery(
                SessionService.DELIVERED, taken.executionId(), woken.inboxSeq()));
  }

  @Test
  void wake_repeatOfAnOfferedOne_isAnsweredOfferedToItsTurn() throws Exception {
    Session session = session("slow", BackpressureTest.slowReader("slow", 1));
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "ready");
    SessionService.Delivery woken = sessions.wake(session.id(), "done", "waitpoint", "wp-2:1");

    SessionService.Delivery again = sessions.wake(session.id(), "done", "waitpoint", "wp-2:1");

    assertThat(woken.status()).isEqualTo(SessionService.OFFERED);
    assertThat(again)
        .isEqualTo(
            new SessionService.Delivery(
                SessionService.OFFERED, first.executionId(), woken.inboxSeq()));
    Files.writeString(work.resolve("slow-release"), "");
    awaitEnd(updates, first.executionId());
    assertThat(sessions.wake(session.id(), "done", "waitpoint", "wp-2:1").status())
        .isEqualTo(SessionService.DELIVERED);
  }

  /**
   * A key is unique across the sessions: one of another session is answered {@code delivered},
   * whatever this session's message of the same number is (it used to be answered as that one).
   */
  @Test
  void wake_keyOfAnotherSession_isAnsweredDelivered_notAsThisSessionsMessageOfItsNumber()
      throws Exception {
    Session other = session("other", holding("other-release"));
    Session session = session("this", holding("this-release"));
    BlockingQueue<SessionService.Update> updates = follow(session);
    sessions.send(other.id(), "first", "person");
    SessionService.Delivery theirs = sessions.wake(other.id(), "done", "waitpoint", "wp-3:1");
    sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "holding");
    SessionService.Delivery second = sessions.send(session.id(), "second", "person");
    assertThat(second.inboxSeq()).isEqualTo(theirs.inboxSeq());
    assertThat(second.status()).isEqualTo(SessionService.QUEUED);

    SessionService.Delivery again = sessions.wake(session.id(), "done", "waitpoint", "wp-3:1");

    assertThat(again)
        .isEqualTo(new SessionService.Delivery(SessionService.DELIVERED, null, theirs.inboxSeq()));
    Files.writeString(work.resolve("other-release"), "");
    Files.writeString(work.resolve("this-release"), "");
  }
}
