package dev.cortex.base;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * The clock of a long-lived process (the agent server): the system's UTC clock, unless the JVM
 * system property {@value #OFFSET_FILE_PROPERTY} names a file, a test setting. Then the clock runs
 * ahead of the system's by the number of milliseconds the file holds (absent or unreadable: none),
 * read again whenever the file changes; a test moves time forward by writing a larger number, and
 * never waits real minutes. The offset is never negative.
 */
public final class ProcessClock extends Clock {
  /** The test setting: a file holding how many milliseconds the clock runs ahead. */
  public static final String OFFSET_FILE_PROPERTY = "cortex.test.clockOffsetFile";

  private final Clock system;
  private final Path offsetFile;
  private volatile Offset offset = new Offset(-1, 0);

  private ProcessClock(Clock system, Path offsetFile) {
    this.system = Objects.requireNonNull(system, "system");
    this.offsetFile = Objects.requireNonNull(offsetFile, "offsetFile");
  }

  /** The system's UTC clock, or the test clock that {@value #OFFSET_FILE_PROPERTY} sets up. */
  public static Clock fromSystemProperties() {
    String file = System.getProperty(OFFSET_FILE_PROPERTY);
    return file == null || file.isBlank()
        ? Clock.systemUTC()
        : new ProcessClock(Clock.systemUTC(), Path.of(file));
  }

  /** A clock {@code system} plus the offset in {@code offsetFile}; for tests of this class. */
  static ProcessClock ahead(Clock system, Path offsetFile) {
    return new ProcessClock(system, offsetFile);
  }

  /** How far this clock runs ahead of the system's now. */
  public Duration offset() {
    return Duration.ofMillis(current());
  }

  private long current() {
    long modified;
    try {
      modified = Files.getLastModifiedTime(offsetFile).toMillis();
    } catch (IOException e) {
      return 0;
    }
    Offset seen = offset;
    if (seen.modified() != modified) {
      long millis = 0;
      try {
        millis = Math.max(0, Long.parseLong(Files.readString(offsetFile).strip()));
      } catch (IOException | NumberFormatException e) {
        millis = seen.millis();
      }
      seen = new Offset(modified, millis);
      offset = seen;
    }
    return seen.millis();
  }

  private record Offset(long modified, long millis) {}

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return Clock.offset(system.withZone(zone), offset()).withZone(zone);
  }

  @Override
  public Instant instant() {
    return system.instant().plusMillis(current());
  }

  @Override
  public long millis() {
    return system.millis() + current();
  }
}
