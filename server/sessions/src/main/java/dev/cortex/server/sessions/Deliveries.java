package dev.cortex.server.sessions;

import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where a message goes: every message is put in the session's inbox first (durably); a turn that
 * runs and whose backend acknowledges messages is offered it at once, else it waits in the queue
 * for the next turn, which starts at once when none runs. The answer says what became of it,
 * waiting a little, when asked to, for an offered message's acknowledgement.
 */
final class Deliveries {
  private final Inbox inbox;
  private final Turns turns;

  Deliveries(Inbox inbox, Turns turns) {
    this.inbox = inbox;
    this.turns = turns;
  }

  /**
   * Delivers a message to a session's agent.
   *
   * @param key null, or the key that makes a second message of the same key a no-op
   * @param ackWait how long to wait for the acknowledgement of a message offered to the running
   *     turn before answering {@code offered} (zero: not at all)
   */
  SessionService.Delivery deliver(
      Session session, String text, String source, String key, Duration ackWait) {
    String id = session.id();
    long seq;
    LiveTurn running;
    CompletableFuture<Boolean> outcome;
    synchronized (turns.lock(id)) {
      Inbox.Enqueued enqueued = inbox.enqueue(id, text, source, key);
      seq = enqueued.seq();
      running = turns.running(id);
      if (!enqueued.added()) {
        // Sent before: a turn has it, or the next turn takes it.
        turns.startLater(id);
        return new SessionService.Delivery(
            SessionService.DELIVERED, running == null ? null : running.executionId, seq);
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
    Boolean taken = await(outcome, ackWait);
    if (taken == null) {
      return new SessionService.Delivery(SessionService.OFFERED, running.executionId, seq);
    }
    return taken
        ? new SessionService.Delivery(SessionService.INJECTED, running.executionId, seq)
        : new SessionService.Delivery(SessionService.QUEUED, null, seq);
  }

  /**
   * Whether the turn took the message (false: it went back to the queue); null when unknown yet.
   */
  private static Boolean await(CompletableFuture<Boolean> outcome, Duration ackWait) {
    try {
      return ackWait.isZero()
          ? outcome.getNow(null)
          : outcome.get(ackWait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
