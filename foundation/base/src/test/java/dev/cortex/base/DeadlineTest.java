package dev.cortex.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DeadlineTest {
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));

  @Test
  void after_budgetFromNow_fallsThenAndCountsDown() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(30), clock);

    assertThat(deadline.at()).isEqualTo(Instant.parse("2026-12-01T10:00:30Z"));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(30));
    assertThat(deadline.remainingMillis()).isEqualTo(30_000);
    assertThat(deadline.expired()).isFalse();

    clock.advance(Duration.ofSeconds(12));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(18));
  }

  @Test
  void remaining_afterTheDeadline_isZeroAndExpired() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(5), clock);

    clock.advance(Duration.ofSeconds(5));
    assertThat(deadline.expired()).isTrue();
    assertThat(deadline.remaining()).isZero();

    clock.advance(Duration.ofMinutes(1));
    assertThat(deadline.remaining()).isZero();
    assertThat(deadline.remainingMillis()).isZero();
  }

  @Test
  void after_zeroBudget_isExpiredAtOnce() {
    assertThat(Deadline.after(Duration.ZERO, clock).expired()).isTrue();
  }

  @Test
  void after_negativeBudget_isRefused() {
    assertThatThrownBy(() -> Deadline.after(Duration.ofSeconds(-1), clock))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @Test
  void atMost_shorterBudget_bringsTheDeadlineForward() {
    Deadline deadline = Deadline.after(Duration.ofMinutes(10), clock);

    Deadline capped = deadline.atMost(Duration.ofMinutes(5));

    assertThat(capped.remaining()).isEqualTo(Duration.ofMinutes(5));
    assertThat(capped.clock()).isSameAs(clock);
  }

  @Test
  void atMost_longerBudget_keepsTheDeadline() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(20), clock);

    assertThat(deadline.atMost(Duration.ofMinutes(5))).isSameAs(deadline);
  }

  @Test
  void extendedBy_margin_fallsThatMuchLater() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(20), clock);

    Deadline answer = deadline.extendedBy(Duration.ofSeconds(30));

    assertThat(answer.remaining()).isEqualTo(Duration.ofSeconds(50));
    assertThat(deadline.remaining()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void extendedBy_negativeMargin_isRefused() {
    Deadline deadline = Deadline.after(Duration.ofSeconds(20), clock);

    assertThatThrownBy(() -> deadline.extendedBy(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A clock the test moves by hand. */
}
