package dev.cortex.storage;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How SQLite makes commits durable ({@code PRAGMA synchronous}) in WAL mode. {@link #NORMAL}, the
 * default: a committed transaction survives a crash or kill of the process and the database never
 * corrupts, but a power loss or an OS crash can lose the last commits (the WAL is synced to disk at
 * checkpoints only). {@link #FULL}: every commit is synced to disk before it returns, at a cost per
 * commit. {@code CORTEX_SQLITE_SYNCHRONOUS} chooses.
 */
public enum Synchronous {
  NORMAL,
  FULL;

  /** The variable that chooses the mode. */
  public static final String VARIABLE = "CORTEX_SQLITE_SYNCHRONOUS";

  /**
   * The mode {@code value} names ({@code normal} or {@code full}, in any case).
   *
   * @throws IllegalArgumentException naming {@code source} when it names none
   */
  public static Synchronous parse(String source, String value) {
    try {
      return valueOf(value.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          source + ": '" + value + "' is not a synchronous mode; use NORMAL or FULL");
    }
  }

  /** The mode {@code CORTEX_SQLITE_SYNCHRONOUS} sets, if it is set. */
  public static Optional<Synchronous> fromEnvironment(Map<String, String> env) {
    String value = env.get(VARIABLE);
    return value == null || value.isBlank()
        ? Optional.empty()
        : Optional.of(parse(VARIABLE, value));
  }
}
