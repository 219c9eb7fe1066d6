package dev.cortex.mcp.caller;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the server remembers for one session between its tool calls, such as "the AGENTS.md of this
 * directory was already sent". Bounded: the oldest facts are forgotten first, so a forgotten fact
 * at worst makes a tool repeat itself.
 */
public final class SessionMemory {
  /** The most facts one session keeps. */
  public static final int MAX_FACTS = 4096;

  private final Map<String, Boolean> facts;

  public SessionMemory() {
    this(MAX_FACTS);
  }

  SessionMemory(int capacity) {
    this.facts =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * Records {@code fact} and tells whether it is new: true the first time, false while it is
   * remembered.
   */
  public synchronized boolean firstTime(String fact) {
    return facts.put(fact, Boolean.TRUE) == null;
  }

  /** Forgets {@code fact}, e.g. when what it recorded turned out not to have happened. */
  public synchronized void forget(String fact) {
    facts.remove(fact);
  }

  synchronized int size() {
    return facts.size();
  }
}
