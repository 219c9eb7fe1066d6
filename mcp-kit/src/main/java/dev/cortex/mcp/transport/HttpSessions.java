package dev.cortex.mcp.transport;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The open sessions of the streamable-HTTP transport as the guard sees them: when each was last
 * used and how many of its requests (or streams) are still being served. A session unused for the
 * idle time expires; when the cap is reached, the least recently used session with nothing in
 * flight makes room for a new one.
 */
final class HttpSessions {
  private static final class Entry {
    Instant lastUsed;
    int inFlight;

    Entry(Instant lastUsed) {
      this.lastUsed = lastUsed;
    }
  }

  private final SessionLimits limits;
  private final Clock clock;
  private final Map<String, Entry> sessions = new LinkedHashMap<>();

  HttpSessions(SessionLimits limits, Clock clock) {
    this.limits = limits;
    this.clock = clock;
  }

  /** A session the server just opened. */
  synchronized void opened(String id) {
    sessions.put(id, new Entry(clock.instant()));
  }

  /** A request of session {@code id} begins; false when there is no such (live) session. */
  synchronized boolean begin(String id) {
    Entry entry = sessions.get(id);
    if (entry == null || expired(entry, clock.instant())) {
      return false;
    }
    entry.inFlight++;
    entry.lastUsed = clock.instant();
    return true;
  }

  /** A request of session {@code id} that {@link #begin} let in has ended. */
  synchronized void end(String id) {
    Entry entry = sessions.get(id);
    if (entry != null) {
      entry.inFlight = Math.max(0, entry.inFlight - 1);
      entry.lastUsed = clock.instant();
    }
  }

  synchronized void closed(String id) {
    sessions.remove(id);
  }

  synchronized int size() {
    return sessions.size();
  }

  /** Removes and returns the sessions unused for longer than the idle time. */
  synchronized List<String> takeExpired() {
    Instant now = clock.instant();
    List<String> expired = new ArrayList<>();
    sessions
        .entrySet()
        .removeIf(
            e -> {
              boolean gone = expired(e.getValue(), now);
              if (gone) {
                expired.add(e.getKey());
              }
              return gone;
            });
    return expired;
  }

  /**
   * Makes room for one more session: empty when there is room already; else the least recently used
   * idle session, removed, to be closed; else (every session busy) a refusal.
   */
  synchronized Optional<Optional<String>> makeRoom() {
    if (sessions.size() < limits.maxSessions()) {
      return Optional.of(Optional.empty());
    }
    Optional<String> oldest =
        sessions.entrySet().stream()
            .filter(e -> e.getValue().inFlight == 0)
            .min(Comparator.comparing(e -> e.getValue().lastUsed))
            .map(Map.Entry::getKey);
    oldest.ifPresent(sessions::remove);
    return oldest.map(Optional::of);
  }

  private boolean expired(Entry entry, Instant now) {
    return entry.inFlight == 0 && entry.lastUsed.plus(limits.idle()).isBefore(now);
  }
}
