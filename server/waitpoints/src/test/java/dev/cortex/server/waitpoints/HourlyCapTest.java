package dev.cortex.server.waitpoints;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HourlyCapTest {
  static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  static final HourlyCap CAP = new HourlyCap(2);

  static Instant minutesAgo(long minutes) {
    return NOW.minus(Duration.ofMinutes(minutes));
  }

  @Test
  void decide_belowTheCap_isDueNowWithoutWarning() {
    HourlyCap.Decision decision = CAP.decide(List.of(minutesAgo(10)), NOW);

    assertThat(decision.due()).isEqualTo(NOW);
    assertThat(decision.warning()).isNull();
  }

  @Test
  void decide_theWakeAboveTheCap_comesNowWithAWarningNamingTheSetting() {
    HourlyCap.Decision decision = CAP.decide(List.of(minutesAgo(20), minutesAgo(10)), NOW);

    assertThat(decision.due()).isEqualTo(NOW);
    assertThat(decision.warning())
        .contains("3 times within an hour")
        .contains("cap of 2")
        .contains("max_wakes_per_hour");
  }

  @Test
  void decide_laterWakes_areDueWhenTheHourAllows() {
    HourlyCap.Decision decision =
        CAP.decide(List.of(minutesAgo(50), minutesAgo(20), minutesAgo(10)), NOW);

    assertThat(decision.due()).isEqualTo(minutesAgo(50).plus(HourlyCap.HOUR));
    assertThat(decision.warning()).isNull();
  }

  @Test
  void decide_aboveTheCapWithAHeldWakeDueAlready_isDueNow() {
    HourlyCap.Decision decision = CAP.decide(List.of(minutesAgo(60), NOW, NOW), NOW);

    assertThat(decision.due()).isEqualTo(NOW);
  }
}
