package dev.cortex.models;

/**
 * Hears a streamed answer as it arrives, on the thread that reads the stream. The whole answer
 * comes back as a {@link Reply} when the stream ends.
 */
public interface StreamListener {
  /** A piece of the answer's text. */
  void text(String delta);

  /** A piece of the model's thinking. */
  default void thinking(String delta) {}

  /**
   * What was heard so far is void: the attempt failed mid-answer and the call is being retried (or
   * passed to a fallback model), whose answer streams from its start.
   */
  default void restarted() {}

  /** Hears nothing. */
  StreamListener NONE = delta -> {};
}
