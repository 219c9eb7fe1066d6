package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Wrong enrolment codes on a clock the test moves: what they lock, and for how long. */
class EnrolAttemptsTest {
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:59Z"));
  final EnrolAttempts attempts = new EnrolAttempts(clock);

  void wrong(int times, String address, String device) {
    for (int i = 0; i < times; i++) {
      attempts.failed(address, device);
    }
  }

  @Test
  void locked_after20WrongCodes_onlyThatDeviceFromThatAddress() {
    wrong(19, "127.0.0.1", "box2");
    assertThat(attempts.locked("127.0.0.1", "box2")).isFalse();

    wrong(1, "127.0.0.1", "box2");

    assertThat(attempts.locked("127.0.0.1", "box2")).isTrue();
    assertThat(attempts.locked("127.0.0.1", "box1")).as("another device").isFalse();
    assertThat(attempts.locked("192.0.2.7", "box2")).as("another address").isFalse();
  }

  @Test
  void locked_overAMinuteThatStraddlesTheClock_countsEveryWrongCode() {
    wrong(10, "127.0.0.1", "box2");
    clock.advance(Duration.ofSeconds(2));
    wrong(10, "127.0.0.1", "box2");

    assertThat(attempts.locked("127.0.0.1", "box2")).isTrue();
  }

  @Test
  void locked_endsAMinuteAfterTheOldestWrongCode() {
    wrong(10, "127.0.0.1", "box2");
    clock.advance(Duration.ofSeconds(30));
    wrong(10, "127.0.0.1", "box2");

    clock.advance(Duration.ofSeconds(29));
    assertThat(attempts.locked("127.0.0.1", "box2")).isTrue();
    clock.advance(Duration.ofSeconds(2));
    assertThat(attempts.locked("127.0.0.1", "box2")).isFalse();
  }

  @Test
  void prune_forgetsWhatIsOlderThanAMinute() {
    wrong(20, "127.0.0.1", "box2");
    clock.advance(Duration.ofSeconds(61));

    attempts.prune();
    wrong(19, "127.0.0.1", "box2");

    assertThat(attempts.locked("127.0.0.1", "box2")).isFalse();
  }
}
