package dev.cortex.server.sessions;

import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import java.util.concurrent.CompletableFuture;

/**
 * Where a message goes: every message is put in the session's inbox first (durably); a turn that
 * runs and whose backend acknowledges messages is offered it (unless it has {@link
 * Offers#MAX_UNACKNOWLEDGED} messages it has not acknowledged: the message then waits in the queue
 * and is offered as the turn acknowledges the others), else it waits in the queue for the next
 * turn, which starts at once when none runs. The answer says what became of it, waiting a little,
 * when asked to, for an offered message's acknowledgement ({@link AckWaits}).
 */
final class Deliveries {
  private final Inbox inbox;
  private final Turns turns;
  private final AckWaits ackWaits;

  Deliveries(Inbox inbox, Turns turns, AckWaits ackWaits) {
    this.inbox = inbox;
    this.turns = turns;
    this.ackWaits = ackWaits;
  }

  /**
   * Delivers a message to a session's agent.
   *
   * @param key null, or the key that makes a second message of the same key a no-op
   * @param waitForAck whether to wait a little ({@link AckWaits}) for the acknowledgement of a
   *     message offered to the running turn before answering {@code offered}
   */
  SessionService.Delivery deliver(
      Session session, String text, String source, String key, boolean waitForAck) {
    String id = session.id();
    long seq;
    LiveTurn running;
    CompletableFuture<Boolean> outcome;
    synchronized (turns.lock(id)) {
      Inbox.Enqueued enqueued = inbox.enqueue(id, text, source, key);
      seq = enqueued.seq();
      running = turns.running(id);
      if (!enqueued.added()) {
        return enqueued.sessionId().equals(id)
            ? again(id, seq, running)
            // Keys are unique across the sessions: this one was another session's.
            : new SessionService.Delivery(SessionService.DELIVERED, null, seq);
      }
      if (running == null) {
        String started = turns.start(id);
        return new SessionService.Delivery(
            started != null ? SessionService.STARTED : SessionService.QUEUED, started, seq);
      }
      outcome = turns.offer(id, running, seq);
      if (outcome == null) {
        return new SessionService.Delivery(SessionService.QUEUED, running.executionId, seq);
      }
    }
    Boolean taken = waitForAck ? ackWaits.await(outcome) : outcome.getNow(null);
    if (taken == null) {
      return new SessionService.Delivery(SessionService.OFFERED, running.executionId, seq);
    }
    return taken
        ? new SessionService.Delivery(SessionService.INJECTED, running.executionId, seq)
        : new SessionService.Delivery(SessionService.QUEUED, null, seq);
  }

  /**
   * A message of a key sent before: what became of the first, as the inbox has it (a queued one
   * starts a turn if none runs, off this thread).
   */
  private SessionService.Delivery again(String id, long seq, LiveTurn running) {
    Inbox.Standing standing = inbox.standing(id, seq);
    if (standing == null) {
      // Delivered so long ago that it was forgotten since it was looked up.
      return new SessionService.Delivery(SessionService.DELIVERED, null, seq);
    }
    return switch (standing.state()) {
      case DELIVERED ->
          new SessionService.Delivery(SessionService.DELIVERED, standing.executionId(), seq);
      case OFFERED ->
          new SessionService.Delivery(SessionService.OFFERED, standing.executionId(), seq);
      case QUEUED -> {
        turns.startLater(id);
        yield new SessionService.Delivery(
            SessionService.QUEUED, running == null ? null : running.executionId, seq);
      }
    };
  }
}
