package dev.cortex.server.sessions;

import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.store.Inbox;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Messages between a session's inbox and its running turn. A turn whose backend acknowledges
 * messages is offered the queued ones, in order, as they come, up to {@link #MAX_UNACKNOWLEDGED}
 * not acknowledged at a time; a message is delivered — its transcript entry written, its followers
 * told — once the backend acknowledges it, or, for a backend that does not acknowledge (a command
 * program of protocol 1), once it printed its first line in the turn that started with it. What a
 * turn was offered and did not take goes back to the queue when it ends. Every method runs under
 * the session's lock.
 */
final class Offers {
  private static final Logger log = LoggerFactory.getLogger(Offers.class);

  /**
   * The most messages a turn holds offered and not acknowledged at once, its prompt's included: the
   * rest wait in the queue, and are offered as the turn acknowledges (or start the next turn).
   */
  static final int MAX_UNACKNOWLEDGED = 16;

  private final Inbox inbox;
  private final Followers followers;

  Offers(Inbox inbox, Followers followers) {
    this.inbox = inbox;
    this.followers = followers;
  }

  /**
   * Offers the queued messages to {@code turn}, in order, when its backend acknowledges messages,
   * as long as it holds fewer than {@link #MAX_UNACKNOWLEDGED} not acknowledged; a message it can
   * no longer take goes back to the queue, with those after it.
   */
  void offerQueued(String sessionId, LiveTurn turn) {
    RunningTurn running = turn.turn;
    int room = MAX_UNACKNOWLEDGED - turn.unacknowledged.size();
    if (turn.acks != LiveTurn.Acks.YES || running == null || room <= 0) {
      return;
    }
    for (Inbox.Message message : inbox.queued(sessionId, room)) {
      if (inbox.offer(sessionId, List.of(message.seq()), turn.executionId).isEmpty()) {
        continue;
      }
      turn.offered(message.seq());
      if (!running.inject(Long.toString(message.seq()), message.text())) {
        inbox.requeue(sessionId, message.seq(), turn.executionId);
        turn.returned(List.of(message.seq()));
        return;
      }
    }
  }

  /**
   * The backend said how it takes messages, once: one that acknowledges is offered what waits in
   * the queue; one that does not has had its prompt.
   */
  void handshake(String sessionId, LiveTurn turn, boolean acks) {
    if (turn.acks != LiveTurn.Acks.UNKNOWN) {
      return;
    }
    if (acks) {
      turn.acks = LiveTurn.Acks.YES;
      offerQueued(sessionId, turn);
    } else {
      turn.acks = LiveTurn.Acks.NO;
      deliver(sessionId, turn, turn.prompt);
    }
  }

  /**
   * The backend took a message in (an id that is none of the turn's is ignored): it has room for
   * one more, if messages wait.
   */
  void acked(String sessionId, LiveTurn turn, String id) {
    if (turn.acks != LiveTurn.Acks.YES) {
      return;
    }
    long seq;
    try {
      seq = Long.parseLong(id);
    } catch (NumberFormatException e) {
      log.debug("session {}: the backend acknowledged '{}', no message of its", sessionId, id);
      return;
    }
    boolean full = turn.unacknowledged.size() >= MAX_UNACKNOWLEDGED;
    deliver(sessionId, turn, List.of(seq));
    if (full) {
      offerQueued(sessionId, turn);
    }
  }

  /** Delivers the messages {@code seqs} offered to {@code turn} (the backend took them). */
  void deliver(String sessionId, LiveTurn turn, List<Long> seqs) {
    for (Inbox.Delivered delivered : inbox.deliver(sessionId, seqs, turn.executionId)) {
      followers.publish(sessionId, delivered.entry());
      followers.publish(
          sessionId, new SessionService.Update.Delivered(delivered.seq(), turn.executionId));
      turn.taken(delivered.seq());
    }
  }

  /**
   * The turn ended: whatever it was offered and did not take goes back to the queue — its prompt
   * too when its backend never said how it takes messages (it stopped, crashed or could not start
   * before its first line, so nothing shows that it had the prompt).
   *
   * @return the numbers of the messages that went back, in order
   */
  List<Long> takeBack(String sessionId, LiveTurn turn) {
    List<Long> back = inbox.requeue(sessionId, turn.executionId);
    turn.returned(back);
    back.forEach(
        seq ->
            followers.publish(
                sessionId, new SessionService.Update.Returned(seq, turn.executionId)));
    return back;
  }
}
