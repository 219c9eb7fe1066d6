package dev.cortex.server.waitpoints;

import dev.cortex.protocol.webhook.Waits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sessions' inboxes as the waitpoints see them: sessions that exist, and the wakes each took, once
 * per key (as the session store's inbox does). A session can be gone (its wakes are refused), and
 * the next delivery can fail for a passing reason.
 */
final class Inbox implements Waker {
  private final Set<String> sessions = new HashSet<>();
  private final Set<String> gone = new HashSet<>();
  private final Map<String, String> byKey = new LinkedHashMap<>();
  private final Map<String, List<String>> bySession = new LinkedHashMap<>();
  private int failures;

  Inbox session(String id) {
    sessions.add(id);
    return this;
  }

  /** The session no longer takes wakes. */
  void gone(String id) {
    gone.add(id);
  }

  /** The next {@code count} deliveries fail as if the store were busy. */
  void failNext(int count) {
    failures = count;
  }

  /** The wakes {@code sessionId} took, oldest first. */
  synchronized List<String> wakes(String sessionId) {
    return List.copyOf(bySession.getOrDefault(sessionId, List.of()));
  }

  @Override
  public boolean knows(String sessionId) {
    return sessions.contains(sessionId);
  }

  @Override
  public synchronized String wake(String sessionId, String text, String key) {
    if (failures > 0) {
      failures--;
      throw new IllegalStateException("the store is busy");
    }
    if (gone.contains(sessionId) || !sessions.contains(sessionId)) {
      throw new WaitException(Waits.Codes.NO_SESSION, "Session " + sessionId + " is gone.");
    }
    if (byKey.putIfAbsent(key, text) != null) {
      return "had it already";
    }
    bySession.computeIfAbsent(sessionId, s -> new ArrayList<>()).add(text);
    return "woke in a new turn";
  }
}
