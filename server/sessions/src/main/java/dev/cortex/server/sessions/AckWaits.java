package dev.cortex.server.sessions;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How sends wait for the acknowledgement of a message offered to a running turn: each at most
 * {@code wait}, and at most {@code most} sends at once across the server; a send beyond those
 * answers at once with what is known, so that a burst of sends to slow agents holds few of the
 * server's threads.
 */
final class AckWaits {
  private final int most;
  private final Semaphore permits;
  private final Duration wait;

  AckWaits(int most, Duration wait) {
    if (most < 1) {
      throw new IllegalArgumentException("at least one send must be able to wait, got " + most);
    }
    this.most = most;
    this.permits = new Semaphore(most);
    this.wait = wait;
  }

  /** How many sends wait now. */
  int waiting() {
    return most - permits.availablePermits();
  }

  /**
   * Whether the turn took the message (false: it went back to the queue); null when that is not
   * known within the wait, or at once when as many sends wait already as may.
   */
  Boolean await(CompletableFuture<Boolean> outcome) {
    if (outcome.isDone() || !permits.tryAcquire()) {
      return outcome.getNow(null);
    }
    try {
      return outcome.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      permits.release();
    }
  }
}
