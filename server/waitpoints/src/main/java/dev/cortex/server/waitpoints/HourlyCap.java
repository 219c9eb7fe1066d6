package dev.cortex.server.waitpoints;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The hourly cap of one waitpoint's wakes ({@code [waitpoints] max_wakes_per_hour}): the wake above
 * the cap still comes now, with a warning; a wake after it is due once the hour allows.
 */
record HourlyCap(int cap) {
  static final Duration HOUR = Duration.ofHours(1);

  /** When a new wake is due, and the warning it carries (null when none). */
  record Decision(Instant due, String warning) {}

  /**
   * Decides about a new fire wake.
   *
   * @param dues when the waitpoint's fire wakes of the last hour are (or were) due, oldest first
   */
  Decision decide(List<Instant> dues, Instant now) {
    if (dues.size() == cap) {
      return new Decision(
          now,
          "this waitpoint has now woken you "
              + (cap + 1)
              + " times within an hour, above the cap of "
              + cap
              + " ([waitpoints] max_wakes_per_hour). Its signals are still recorded, but its"
              + " later wakes wait until the hour allows and then come together.");
    }
    if (dues.size() > cap) {
      Instant allowed = dues.get(dues.size() - cap - 1).plus(HOUR);
      return new Decision(allowed.isAfter(now) ? allowed : now, null);
    }
    return new Decision(now, null);
  }
}
