package dev.cortex.server.sessions.backend;

import java.time.Duration;
import java.util.Optional;

/** A turn a backend is running. */
public interface RunningTurn {
  /**
   * Whether {@link #inject} reaches the running turn: a message sent mid-turn is then merged into
   * it; otherwise it waits for the next turn.
   */
  boolean injects();

  /**
   * Adds a user message to the running turn.
   *
   * @return false when the turn can no longer take it (it is ending): queue it instead
   */
  boolean inject(String text);

  /** Stops the turn and everything it started; its last event is an end with status stopped. */
  void stop();

  /** Waits until the turn has ended (its end event sent); empty when {@code limit} passed. */
  Optional<BackendEvent.End> await(Duration limit) throws InterruptedException;
}
