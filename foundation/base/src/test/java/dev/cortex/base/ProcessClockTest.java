package dev.cortex.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessClockTest {
  static final Instant NOW = Instant.parse("2026-07-01T12:00:00Z");
  static final Clock SYSTEM = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void instant_withoutOffsetFile_isTheSystemsTime() {
    ProcessClock clock = ProcessClock.ahead(SYSTEM, dir.resolve("absent"));

    assertThat(clock.instant()).isEqualTo(NOW);
    assertThat(clock.offset()).isZero();
  }

  @Test
  void instant_afterTheFileChanges_runsAheadByItsMilliseconds() throws Exception {
    Path file = dir.resolve("offset");
    Files.writeString(file, "60000\n");
    ProcessClock clock = ProcessClock.ahead(SYSTEM, file);
    assertThat(clock.instant()).isEqualTo(NOW.plusSeconds(60));

    Files.writeString(file, "3600000");
    Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(1)));

    assertThat(clock.instant()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    assertThat(clock.millis()).isEqualTo(NOW.plus(Duration.ofHours(1)).toEpochMilli());
  }

  @Test
  void instant_garbageOrNegativeOffset_keepsTheLastGoodOneOrNone() throws Exception {
    Path file = dir.resolve("offset");
    Files.writeString(file, "5000");
    ProcessClock clock = ProcessClock.ahead(SYSTEM, file);
    assertThat(clock.instant()).isEqualTo(NOW.plusSeconds(5));

    Files.writeString(file, "soon");
    Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(1)));
    assertThat(clock.instant()).isEqualTo(NOW.plusSeconds(5));

    Files.writeString(file, "-9000");
    Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(2)));
    assertThat(clock.instant()).isEqualTo(NOW);
  }
}
