package dev.cortex.server.sessions;

import dev.cortex.server.sessions.backend.RunningTurn;
import java.time.Instant;

/** A turn that is running: its execution, its backend's turn, what it has cost so far. */
final class LiveTurn {
  final String executionId;

  /** When the turn has run for max_turn, by the server's clock. */
  final Instant deadline;

  volatile RunningTurn turn;
  volatile double usd;
  volatile String stopReason;
  volatile boolean timedOut;

  LiveTurn(String executionId, Instant deadline) {
    this.executionId = executionId;
    this.deadline = deadline;
  }

  /** Stops the backend's turn, saying why; false when it has not started yet. */
  boolean stop(String reason) {
    RunningTurn running = turn;
    if (running == null) {
      return false;
    }
    stopReason = reason;
    running.stop();
    return true;
  }

  /**
   * Stops the turn, once, when it has run past its deadline at {@code now}: nobody asked for it, so
   * the turn fails.
   */
  synchronized void expireAt(Instant now, String reason) {
    if (timedOut || turn == null || now.isBefore(deadline)) {
      return;
    }
    timedOut = true;
    stop(reason);
  }
}
