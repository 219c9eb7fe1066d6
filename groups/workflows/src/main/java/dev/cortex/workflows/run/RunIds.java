package dev.cortex.workflows.run;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Run ids such as {@code 20261130T094512Z-k3m9x2qa}: the start time and eight random characters,
 * unique however many runs start in the same second, on any engine.
 */
public final class RunIds {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final char[] CHARS = "abcdefghijkmnpqrstuvwxyz23456789".toCharArray();
  private static final SecureRandom RANDOM = new SecureRandom();

  private RunIds() {}

  /** A new run id for a run starting at {@code now}. */
  public static String next(Instant now) {
    StringBuilder id = new StringBuilder(TIME.format(now)).append('-');
    for (int i = 0; i < 8; i++) {
      id.append(CHARS[RANDOM.nextInt(CHARS.length)]);
    }
    return id.toString();
  }
}
