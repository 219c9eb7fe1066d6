package dev.cortex.workflows.run;

import dev.cortex.workflows.manifest.Retry;
import java.time.Duration;
import java.util.Objects;

/**
 * The pause before each new attempt of a failed step, and how it is waited out. The embedded engine
 * pauses for the step's constant {@code retry.backoff} and sleeps on the attempt's thread (an
 * interrupt, the run's cancellation, ends the pause).
 *
 * @param delay the pause before an attempt
 * @param sleeper what waits the pause out
 */
record Backoff(Delay delay, Sleeper sleeper) {
  /** The manifest's constant backoff, slept on the calling thread. */
  static final Backoff MANIFEST =
      new Backoff((retry, attempt) -> retry.backoff(), pause -> Thread.sleep(pause.toMillis()));

  /** The pause before an attempt. */
  @FunctionalInterface
  interface Delay {
    /** The pause before attempt {@code attempt} (2 or more) of a step retried as {@code retry}. */
    Duration before(Retry retry, int attempt);
  }

  /** Waits a pause out. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration pause) throws InterruptedException;
  }

  Backoff {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(sleeper, "sleeper");
  }

  /** Waits before attempt {@code attempt} of a step retried as {@code retry}. */
  void await(Retry retry, int attempt) throws InterruptedException {
    sleeper.sleep(delay.before(retry, attempt));
  }
}
