package dev.cortex.mcp.caller;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The sessions one server serves, each with its identity and memory. A stdio server serves one; a
 * server on HTTP serves one per MCP session. Bounded: the least recently used session's memory is
 * dropped beyond {@link #MAX_SESSIONS}.
 */
public final class Sessions {
  /** The most sessions whose memory is kept. */
  public static final int MAX_SESSIONS = 256;

  private final SessionIdentity identity;
  private final Map<String, SessionMemory> memories =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SessionMemory> eldest) {
          return size() > MAX_SESSIONS;
        }
      };

  /** Sessions that all have {@code identity}, e.g. the one in the server's environment. */
  public Sessions(SessionIdentity identity) {
    this.identity = Objects.requireNonNull(identity, "identity");
  }

  /** The identity calls run for. */
  public SessionIdentity identity() {
    return identity;
  }

  /**
   * The memory of the session that {@code key} names (the MCP session id, or null for a transport
   * with one session). Calls of one agent session share it.
   */
  public synchronized SessionMemory memory(String key) {
    String name = identity.sessionId() != null ? identity.sessionId() : key == null ? "" : key;
    return memories.computeIfAbsent(name, k -> new SessionMemory());
  }
}
