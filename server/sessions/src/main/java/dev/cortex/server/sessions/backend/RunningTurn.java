package dev.cortex.server.sessions.backend;

import java.time.Duration;
import java.util.Optional;

/** A turn a backend is running. */
public interface RunningTurn {
  /**
   * Gives the running turn a user message; the backend acknowledges it ({@link BackendEvent.Acked}
   * with {@code id}) once it has taken it. Only for a backend whose {@link BackendEvent.Handshake}
   * said it acknowledges: one that does not would never say whether it took the message.
   *
   * @return false when the turn can no longer take it (it is ending): queue it instead
   */
  boolean inject(String id, String text);

  /** Stops the turn and everything it started; its last event is an end with status stopped. */
  void stop();

  /** Waits until the turn has ended (its end event sent); empty when {@code limit} passed. */
  Optional<BackendEvent.End> await(Duration limit) throws InterruptedException;
}
