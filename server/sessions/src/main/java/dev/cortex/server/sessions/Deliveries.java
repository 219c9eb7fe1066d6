package dev.cortex.server.sessions;

import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import java.util.List;

/**
 * Where a message goes: every message is put in the session's inbox first (durably); the running
 * turn takes it at once where its backend injects, else it waits there for the next turn, which
 * starts at once when none runs.
 */
final class Deliveries {
  private final SessionStore store;
  private final Turns turns;
  private final Followers followers;

  Deliveries(SessionStore store, Turns turns, Followers followers) {
    this.store = store;
    this.turns = turns;
    this.followers = followers;
  }

  /**
   * Delivers a message to a session's agent.
   *
   * @param key null, or the key that makes a second message of the same key a no-op
   */
  SessionService.Delivery deliver(Session session, String text, String source, String key) {
    String id = session.id();
    synchronized (turns.lock(id)) {
      SessionStore.Enqueued enqueued = store.enqueue(id, text, source, key);
      long seq = enqueued.seq();
      if (!enqueued.added()) {
        // Sent before: a turn has it, or the next turn takes it.
        turns.startLater(id);
        LiveTurn running = turns.running(id);
        return new SessionService.Delivery(
            "delivered", running == null ? null : running.executionId, seq);
      }
      LiveTurn running = turns.running(id);
      if (running == null) {
        String started = turns.start(id);
        return new SessionService.Delivery(started != null ? "started" : "queued", started, seq);
      }
      if (inject(id, running, text, seq)) {
        return new SessionService.Delivery("injected", running.executionId, seq);
      }
      return new SessionService.Delivery("queued", running.executionId, seq);
    }
  }

  /** Injects the inbox message {@code seq} into the running turn; false when it cannot take it. */
  private boolean inject(String sessionId, LiveTurn running, String text, long seq) {
    RunningTurn turn = running.turn;
    if (turn == null || !turn.injects() || !turn.inject(text)) {
      return false;
    }
    List<SessionStore.Pending> message =
        store.pending(sessionId).stream().filter(p -> p.seq() == seq).toList();
    store
        .deliver(sessionId, message, running.executionId)
        .forEach(e -> followers.publish(sessionId, e));
    followers.publish(sessionId, new SessionService.Update.Delivered(seq, running.executionId));
    return true;
  }
}
