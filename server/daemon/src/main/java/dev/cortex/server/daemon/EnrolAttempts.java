package dev.cortex.server.daemon;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wrong enrolment codes over the last minute, by address and device: after {@value #MAX_FAILURES},
 * that device's codes from that address are refused until the oldest of them is a minute old.
 * Someone guessing one device's code holds up no other device, and that device from no other
 * address (devices behind a tunnel all come from 127.0.0.1).
 */
final class EnrolAttempts {
  static final int MAX_FAILURES = 20;
  static final Duration WINDOW = Duration.ofMinutes(1);

  /** Keys kept at most; beyond them a new key is not counted (the map must not grow unbounded). */
  private static final int MAX_KEYS = 10_000;

  private final Clock clock;
  private final Map<String, Deque<Instant>> failures = new ConcurrentHashMap<>();

  EnrolAttempts(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Whether codes for {@code device} from {@code address} are refused now. */
  boolean locked(String address, String device) {
    Instant since = clock.instant().minus(WINDOW);
    Deque<Instant> recent =
        failures.computeIfPresent(key(address, device), (key, times) -> recentOnly(times, since));
    return recent != null && recent.size() >= MAX_FAILURES;
  }

  /** Counts a wrong code for {@code device} from {@code address}. */
  void failed(String address, String device) {
    Instant now = clock.instant();
    String key = key(address, device);
    if (failures.size() >= MAX_KEYS && !failures.containsKey(key)) {
      return;
    }
    failures.compute(
        key,
        (k, times) -> {
          Deque<Instant> kept = times == null ? new ArrayDeque<>() : times;
          kept.addLast(now);
          while (kept.size() > MAX_FAILURES) {
            kept.removeFirst();
          }
          return kept;
        });
  }

  /** Forgets addresses and devices with no wrong code in the last minute; called every second. */
  void prune() {
    Instant since = clock.instant().minus(WINDOW);
    for (String key : failures.keySet()) {
      failures.computeIfPresent(key, (k, times) -> recentOnly(times, since));
    }
  }

  /** {@code times} without those before {@code since}; null (the key goes) when none is left. */
  private static Deque<Instant> recentOnly(Deque<Instant> times, Instant since) {
    while (!times.isEmpty() && times.peekFirst().isBefore(since)) {
      times.removeFirst();
    }
    return times.isEmpty() ? null : times;
  }

  private static String key(String address, String device) {
    return address + " " + device;
  }
}
