package dev.cortex.workflows.run;

import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** Short descriptions of values and durations for summaries and messages. */
public final class Describe {
  private Describe() {}

  /** E.g. "an object with 3 keys", "an array of 12", "a string of 40 chars", "null". */
  public static String value(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return "null";
    }
    if (value.isObject()) {
      return "an object with " + value.size() + (value.size() == 1 ? " key" : " keys");
    }
    if (value.isArray()) {
      return "an array of " + value.size();
    }
    if (value.isString()) {
      return "a string of " + value.asString().length() + " chars";
    }
    if (value.isBoolean()) {
      return value.asBoolean() ? "true" : "false";
    }
    return "a number";
  }

  /** E.g. "500 ms", "30 s", "5 min". */
  public static String duration(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000 || millis % 1000 != 0) {
      return millis + " ms";
    }
    long seconds = millis / 1000;
    if (seconds < 60 || seconds % 60 != 0) {
      return seconds + " s";
    }
    return seconds / 60 + " min";
  }

  /** E.g. "812 B", "3.1 KB", "2.4 MB". */
  public static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
  }
}
