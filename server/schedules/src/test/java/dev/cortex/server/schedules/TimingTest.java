package dev.cortex.server.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.session.Schedules;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimingTest {
  static final Instant NOW = Instant.parse("2026-03-27T10:00:00Z");

  static Schedules.Add add(
      String every, String daily, String weekly, String cron, String at, String zone) {
    return new Schedules.Add(
        null, "do it", every, daily, weekly, cron, at, zone, null, null, null, null, null, null,
        null, null, null, null, null, null);
  }

  static Timing timing(Schedules.Add add) {
    return Drafts.draft(add, NOW).timing();
  }

  @Test
  void every_countsFromItsStart() {
    Timing every = timing(add("15m", null, null, null, null, null));
    assertThat(every.next(NOW)).isEqualTo(NOW.plusSeconds(900));
    assertThat(every.next(NOW.plusSeconds(901))).isEqualTo(NOW.plusSeconds(1800));
    assertThat(Timing.parse(every.text()).next(NOW.plusSeconds(1))).isEqualTo(NOW.plusSeconds(900));
  }

  @Test
  void daily_and_weekly_fireAtTheLocalTimeOfTheirZone() {
    Timing daily = timing(add(null, "09:30", null, null, null, "Europe/Paris"));
    // 2026-03-27 is a Friday, Paris is UTC+1 until the 29th.
    assertThat(daily.next(NOW)).isEqualTo(Instant.parse("2026-03-28T08:30:00Z"));
    Timing weekly = timing(add(null, null, "mon,wed@07:00", null, null, "UTC"));
    assertThat(weekly.next(NOW)).isEqualTo(Instant.parse("2026-03-30T07:00:00Z"));
    assertThat(weekly.next(Instant.parse("2026-03-30T07:00:00Z")))
        .isEqualTo(Instant.parse("2026-04-01T07:00:00Z"));
    assertThat(Timing.parse(weekly.text()).next(NOW)).isEqualTo(weekly.next(NOW));
    assertThat(timing(add(null, null, "mon-fri@17:00", null, null, null)).text())
        .isEqualTo("weekly mon,tue,wed,thu,fri 17:00 UTC");
  }

  @Test
  void aDailyRunAt0230_onTheDaysParisChangesItsClocks() {
    Timing daily = timing(add(null, "02:30", null, null, null, "Europe/Paris"));
    // Spring: on 29 March 2026 02:00 becomes 03:00, so 02:30 is not on the clock: it fires at
    // 03:30 local (01:30 UTC), once, and the next day at 02:30 summer time (00:30 UTC).
    Instant spring = daily.next(Instant.parse("2026-03-28T12:00:00Z"));
    assertThat(spring).isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
    assertThat(daily.next(spring)).isEqualTo(Instant.parse("2026-03-30T00:30:00Z"));
    // Autumn: on 25 October 2026 03:00 becomes 02:00, so 02:30 is on the clock twice: it fires
    // once, at the first (00:30 UTC), and next at 02:30 winter time the day after (01:30 UTC).
    Instant autumn = daily.next(Instant.parse("2026-10-24T12:00:00Z"));
    assertThat(autumn).isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
    assertThat(daily.next(autumn)).isEqualTo(Instant.parse("2026-10-26T01:30:00Z"));
  }

  @Test
  void aCronAt0230_onTheDaysParisChangesItsClocks_asCronUtilsReadsIt() {
    Timing cron = timing(add(null, null, null, "30 2 * * *", null, "Europe/Paris"));
    // Spring: 02:30 is not on the clock on 29 March, and cron does not fire that day.
    assertThat(cron.next(Instant.parse("2026-03-28T12:00:00Z")))
        .isEqualTo(Instant.parse("2026-03-30T00:30:00Z"));
    // Autumn: 02:30 is on the clock twice on 25 October; cron fires once.
    Instant autumn = cron.next(Instant.parse("2026-10-24T12:00:00Z"));
    assertThat(autumn.atZone(java.time.ZoneId.of("Europe/Paris")).toLocalTime())
        .isEqualTo(java.time.LocalTime.of(2, 30));
    assertThat(cron.next(autumn)).isEqualTo(Instant.parse("2026-10-26T01:30:00Z"));
  }

  @Test
  void cron_isReadInItsZone_andOnceFiresOnce() {
    Timing cron = timing(add(null, null, null, "0 9 * * 1-5", null, "America/New_York"));
    // Friday 27 March 2026, 10:00 UTC is 06:00 in New York (UTC-4): 09:00 there is 13:00 UTC.
    assertThat(cron.next(NOW)).isEqualTo(Instant.parse("2026-03-27T13:00:00Z"));
    assertThat(cron.next(Instant.parse("2026-03-27T13:00:00Z")))
        .isEqualTo(Instant.parse("2026-03-30T13:00:00Z"));
    assertThat(Timing.parse(cron.text()).next(NOW)).isEqualTo(cron.next(NOW));
    Timing once = timing(add(null, null, null, null, "2026-04-01T08:00", "Asia/Tokyo"));
    assertThat(once.next(NOW)).isEqualTo(Instant.parse("2026-03-31T23:00:00Z"));
    assertThat(once.next(Instant.parse("2026-03-31T23:00:00Z"))).isNull();
  }

  @Test
  void badTimings_areRefusedWithWhatToWrite() {
    assertThatThrownBy(() -> timing(add(null, "09:00", null, null, null, "Mars/Olympus")))
        .isInstanceOf(ScheduleException.class)
        .hasMessageContaining("not an IANA time zone");
    assertThatThrownBy(() -> timing(add(null, null, null, "61 * * * *", null, null)))
        .hasMessageContaining("not a cron expression");
    assertThatThrownBy(() -> timing(add(null, null, null, "* * *", null, null)))
        .isInstanceOf(ScheduleException.class)
        .hasMessageContaining("not a cron expression");
    assertThatThrownBy(() -> timing(add("30s", null, null, null, null, null)))
        .hasMessageContaining("at least one minute");
    assertThatThrownBy(() -> timing(add("soon", null, null, null, null, null)))
        .hasMessageContaining("not an interval");
    assertThatThrownBy(() -> timing(add(null, "25:00", null, null, null, null)))
        .hasMessageContaining("not a time of day");
    assertThatThrownBy(() -> timing(add(null, null, "funday@09:00", null, null, null)))
        .hasMessageContaining("not a day");
    assertThatThrownBy(() -> timing(add(null, null, null, null, "tomorrow", null)))
        .hasMessageContaining("not an instant");
    assertThatThrownBy(() -> add("1h", "09:00", null, null, null, null))
        .hasMessageContaining("exactly one timing");
  }
}
