package dev.cortex.server.daemon;

import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.waitpoints.WaitException;
import dev.cortex.server.waitpoints.Waker;

/**
 * Waitpoints wake the sessions of the agent server: a wake is a message of the session, delivered
 * as any other (a new turn, or the running one once it acknowledges it), once per key.
 */
final class SessionWaker implements Waker {
  private final SessionService sessions;

  SessionWaker(SessionService sessions) {
    this.sessions = sessions;
  }

  @Override
  public boolean knows(String sessionId) {
    try {
      return sessions.get(sessionId).id().equals(sessionId);
    } catch (SessionException e) {
      return false;
    }
  }

  @Override
  public String wake(String sessionId, String text, String key) {
    try {
      SessionService.Delivery delivery = sessions.wake(sessionId, text, "waitpoint", key);
      return switch (delivery.status()) {
        case SessionService.STARTED -> "woke in a new turn (" + delivery.executionId() + ")";
        case SessionService.INJECTED ->
            "got it in its running turn (" + delivery.executionId() + ")";
        case SessionService.OFFERED ->
            "was handed it in its running turn ("
                + delivery.executionId()
                + "), or gets it in the next one";
        case SessionService.QUEUED -> "gets it when its running turn ends";
        default -> "had it already";
      };
    } catch (SessionException e) {
      throw new WaitException(Waits.Codes.NO_SESSION, e.getMessage());
    }
  }
}
