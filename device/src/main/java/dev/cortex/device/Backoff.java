package dev.cortex.device;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** The waits between a device's tries: 1 s, doubling to 30 s, each with ±20 % jitter. */
final class Backoff {
  static final Duration FIRST = Duration.ofSeconds(1);
  static final Duration MAX = Duration.ofSeconds(30);

  private Duration next = FIRST;

  /** Starts over at 1 s (after a connection the hub welcomed). */
  void reset() {
    next = FIRST;
  }

  /** How long to wait before the next try, in milliseconds; the one after waits twice as long. */
  long nextMillis() {
    long wait = (long) (next.toMillis() * (0.8 + 0.4 * ThreadLocalRandom.current().nextDouble()));
    next = next.multipliedBy(2).compareTo(MAX) > 0 ? MAX : next.multipliedBy(2);
    return wait;
  }
}
