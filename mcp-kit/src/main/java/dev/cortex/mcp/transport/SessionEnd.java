package dev.cortex.mcp.transport;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

/** Ends a session's request once its held-open stream completes. */
final class SessionEnd implements AsyncListener {
  private final HttpSessions sessions;
  private final String session;

  SessionEnd(HttpSessions sessions, String session) {
    this.sessions = sessions;
    this.session = session;
  }

  @Override
  public void onComplete(AsyncEvent event) {
    sessions.end(session);
  }

  @Override
  public void onTimeout(AsyncEvent event) {}

  @Override
  public void onError(AsyncEvent event) {}

  @Override
  public void onStartAsync(AsyncEvent event) {}
}
