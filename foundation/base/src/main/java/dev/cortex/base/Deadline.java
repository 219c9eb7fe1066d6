package dev.cortex.base;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The moment by which something must be done, read on a clock. One is made where a request enters a
 * process (a tool call, a webhook request, a command on a device) and handed down, so that every
 * layer below asks it what is left instead of adding up timeouts of its own. A layer that must end
 * sooner (or whose answer needs time to travel back) derives a deadline from it.
 *
 * <p>Time is the injected clock's: a test that moves its clock forward expires the deadline at
 * once, without waiting.
 */
public final class Deadline {
  private final Instant at;
  private final Clock clock;

  private Deadline(Instant at, Clock clock) {
    this.at = at;
    this.clock = clock;
  }

  /**
   * The deadline {@code budget} from now on {@code clock}.
   *
   * @throws IllegalArgumentException when {@code budget} is negative
   */
  public static Deadline after(Duration budget, Clock clock) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(clock, "clock");
    if (budget.isNegative()) {
      throw new IllegalArgumentException("a deadline's budget cannot be negative: " + budget);
    }
    return new Deadline(clock.instant().plus(budget), clock);
  }

  /** The instant it falls at. */
  public Instant at() {
    return at;
  }

  /** The clock it is read on. */
  public Clock clock() {
    return clock;
  }

  /** The time left until it falls; zero once it has. */
  public Duration remaining() {
    Duration left = Duration.between(clock.instant(), at);
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** The time left in whole milliseconds, as the wire carries it; zero once it has fallen. */
  public long remainingMillis() {
    return remaining().toMillis();
  }

  /** Whether it has fallen. */
  public boolean expired() {
    return !clock.instant().isBefore(at);
  }

  /** This deadline, or {@code budget} from now when that comes sooner. */
  public Deadline atMost(Duration budget) {
    Deadline cap = after(budget, clock);
    return cap.at.isBefore(at) ? cap : this;
  }

  /**
   * A deadline {@code margin} later than this one: when the answer of work due at this deadline
   * must have come back.
   */
  public Deadline extendedBy(Duration margin) {
    Objects.requireNonNull(margin, "margin");
    if (margin.isNegative()) {
      throw new IllegalArgumentException("a margin cannot be negative: " + margin);
    }
    return new Deadline(at.plus(margin), clock);
  }

  @Override
  public String toString() {
    return "Deadline[" + at + "]";
  }
}
