package dev.cortex.server.waitpoints;

/** Where wakes go: the sessions of the agent server. */
public interface Waker {
  /** Whether the session exists. */
  boolean knows(String sessionId);

  /**
   * Puts {@code text} before the session's agent, once per {@code key}: a second call with the same
   * key (after a crash, say) must not deliver it again.
   *
   * @return how it went, in a few words (e.g. {@code started ex-…})
   * @throws WaitException when the session cannot take it (it is gone)
   */
  String wake(String sessionId, String text, String key);
}
