package dev.cortex.server.schedules;

import dev.cortex.protocol.session.Schedules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;

/**
 * Requests of the session API as schedules, and schedules as its answers. Everything a request says
 * is checked here, before anything is written: the timing (an interval of at least a minute, a time
 * of day, days, a cron expression, an instant to come), the zone (an IANA name), the policies and
 * the bounds of the grace and the pre-check.
 */
public final class Drafts {
  private Drafts() {}

  /**
   * The schedule {@code add} asks for, not yet stored ({@link Scheduler#add} gives it its id).
   *
   * @param now the instant an {@code every} counts from
   */
  public static Schedule draft(Schedules.Add add, Instant now) {
    try {
      ZoneId zone = add.zone() == null ? ZoneId.of("UTC") : Timing.zone(add.zone());
      Timing timing;
      if (add.every() != null) {
        timing = new Timing.Every(Timing.duration(add.every()), now);
      } else if (add.daily() != null) {
        timing =
            new Timing.Weekly(
                java.util.EnumSet.allOf(java.time.DayOfWeek.class), Timing.time(add.daily()), zone);
      } else if (add.weekly() != null) {
        String[] parts = add.weekly().split("@");
        if (parts.length != 2) {
          throw new Timing.BadTiming(
              "weekly is days@time, such as mon,fri@09:00 or mon-fri@17:30.");
        }
        timing = new Timing.Weekly(Timing.days(parts[0]), Timing.time(parts[1]), zone);
      } else if (add.cron() != null) {
        timing = Timing.CronTiming.of(add.cron(), zone);
      } else {
        timing = new Timing.Once(Timing.instant(add.at(), zone));
      }
      Schedule.Target target =
          add.session() != null
              ? new Schedule.Target.Session(add.session())
              : add.channel() != null
                  ? new Schedule.Target.Channel(add.channel())
                  : new Schedule.Target.Fresh();
      Duration grace = add.grace() == null ? Schedule.DEFAULT_GRACE : Timing.duration(add.grace());
      if (grace.isNegative() || grace.compareTo(Schedule.MAX_GRACE) > 0) {
        throw new Timing.BadTiming("grace is at most 7d.");
      }
      Schedule.Check check = null;
      if (add.check() != null) {
        Duration timeout =
            add.checkTimeout() == null
                ? Schedule.Check.DEFAULT_TIMEOUT
                : Timing.duration(add.checkTimeout());
        if (timeout.compareTo(Duration.ofSeconds(1)) < 0
            || timeout.compareTo(Schedule.Check.MAX_TIMEOUT) > 0) {
          throw new Timing.BadTiming("check_timeout is 1s to 5m.");
        }
        check = new Schedule.Check(add.check(), timeout);
      } else if (add.checkTimeout() != null) {
        throw new Timing.BadTiming("check_timeout goes with a check.");
      }
      Path directory = null;
      if (add.workingDirectory() != null) {
        directory = Path.of(add.workingDirectory());
        if (!directory.isAbsolute()) {
          throw new Timing.BadTiming("working_directory is an absolute path.");
        }
      }
      return new Schedule(
          "draft",
          add.project(),
          add.prompt(),
          timing,
          target,
          add.backend(),
          add.model(),
          policy(Schedule.Overlap.class, add.overlap(), Schedule.Overlap.SKIP, "overlap"),
          policy(Schedule.Missed.class, add.missed(), Schedule.Missed.RUN_LATE, "missed"),
          grace,
          check,
          directory,
          add.program(),
          Boolean.TRUE.equals(add.paused()),
          null,
          now);
    } catch (Timing.BadTiming e) {
      throw new ScheduleException(ScheduleException.INVALID_ARGUMENT, e.getMessage());
    } catch (java.nio.file.InvalidPathException e) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT, "working_directory is not a path.");
    }
  }

  private static <E extends Enum<E>> E policy(
      Class<E> type, String given, E fallback, String what) {
    if (given == null) {
      return fallback;
    }
    try {
      return Enum.valueOf(type, given.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      StringBuilder names = new StringBuilder();
      for (E each : type.getEnumConstants()) {
        names
            .append(names.length() == 0 ? "" : ", ")
            .append(each.name().toLowerCase(Locale.ROOT).replace('_', '-'));
      }
      throw new Timing.BadTiming(what + " is one of " + names + ".");
    }
  }

  /** How a policy is written on the wire ({@code run-late}). */
  static String wire(Enum<?> policy) {
    return policy.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Schedules.View view(Schedule s) {
    String target =
        s.target() instanceof Schedule.Target.Channel channel
            ? "channel " + channel.channel()
            : s.target() instanceof Schedule.Target.Session session
                ? "session " + session.sessionId()
                : "fresh session";
    return new Schedules.View(
        s.id(),
        s.project(),
        s.prompt(),
        s.timing().text(),
        target,
        s.backend(),
        s.model(),
        wire(s.overlap()),
        wire(s.missed()),
        s.grace().getSeconds(),
        s.check() == null ? null : s.check().command(),
        s.check() == null ? null : s.check().timeout().getSeconds(),
        s.workingDirectory() == null ? null : s.workingDirectory().toString(),
        s.paused(),
        s.nextDue() == null ? null : s.nextDue().toString(),
        s.createdAt().toString());
  }

  public static Schedules.FireView view(ScheduleStore.Fire f) {
    return new Schedules.FireView(
        f.id(),
        f.dueAt().toString(),
        f.state(),
        f.reason(),
        f.checkExit(),
        f.checkTail(),
        f.sessionId(),
        f.executionId(),
        f.outcome(),
        f.startedAt() == null ? null : f.startedAt().toString());
  }
}
