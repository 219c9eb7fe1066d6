package dev.cortex.server.schedules;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A schedule: what to tell an agent ({@code prompt}), when ({@link Timing}), where (a fresh session
 * each time, the session on a channel, or one existing session), on which backend and model, and
 * what to do when the previous run still goes ({@link Overlap}) or the server was down at the due
 * time ({@link Missed}). An optional shell pre-check decides, by its exit code, whether a fire
 * runs.
 *
 * @param nextDue the next fire, or null when there is none (a once that fired)
 */
public record Schedule(
    String id,
    String project,
    String prompt,
    Timing timing,
    Target target,
    String backend,
    String model,
    Overlap overlap,
    Missed missed,
    Duration grace,
    Check check,
    Path workingDirectory,
    List<String> program,
    boolean paused,
    Instant nextDue,
    Instant createdAt) {
  /** The longest prompt. */
  public static final int MAX_PROMPT = 100_000;

  /** The default and the longest wait for a late run, when the server was down at its due time. */
  public static final Duration DEFAULT_GRACE = Duration.ofHours(1);

  public static final Duration MAX_GRACE = Duration.ofDays(7);

  /** A fire this late still counts as on time (the server's own delays). */
  public static final Duration ON_TIME = Duration.ofMinutes(1);

  public Schedule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(timing, "timing");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(overlap, "overlap");
    Objects.requireNonNull(missed, "missed");
    Objects.requireNonNull(grace, "grace");
    program = program == null ? null : List.copyOf(program);
  }

  /** Where a fire runs. */
  public sealed interface Target {
    /** A new session for each fire. */
    record Fresh() implements Target {}

    /** The session on {@code channel}, made on the first fire when there is none. */
    record Channel(String channel) implements Target {}

    /** The existing session {@code sessionId}. */
    record Session(String sessionId) implements Target {}
  }

  /** When the run of the previous fire still goes: skip this one, queue one, or run beside it. */
  public enum Overlap {
    SKIP,
    QUEUE,
    PARALLEL
  }

  /** When the server was down at the due time: run once late within the grace, or skip. */
  public enum Missed {
    RUN_LATE,
    SKIP
  }

  /** A shell command whose exit code 0 lets a fire run; it may take {@code timeout}. */
  public record Check(String command, Duration timeout) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(5);
    public static final int MAX_COMMAND = 4_000;

    public Check {
      Objects.requireNonNull(command, "command");
      Objects.requireNonNull(timeout, "timeout");
    }
  }

  /** This schedule with {@code nextDue} and {@code paused}. */
  Schedule with(Instant due, boolean pause) {
    return new Schedule(
        id,
        project,
        prompt,
        timing,
        target,
        backend,
        model,
        overlap,
        missed,
        grace,
        check,
        workingDirectory,
        program,
        pause,
        due,
        createdAt);
  }

  /** Whether a fire due at {@code due} may still run at {@code now}. */
  boolean mayRun(Instant due, Instant now) {
    Duration late = Duration.between(due, now);
    return missed == Missed.RUN_LATE
        ? late.compareTo(grace.compareTo(ON_TIME) > 0 ? grace : ON_TIME) <= 0
        : late.compareTo(ON_TIME) <= 0;
  }
}
