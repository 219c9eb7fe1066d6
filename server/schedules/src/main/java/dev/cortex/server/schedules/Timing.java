package dev.cortex.server.schedules;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * When a schedule fires: every interval (from its start), daily or on some weekdays at a local time
 * in an IANA zone, by a cron expression in a zone (five fields, as crontab(5), read by cron-utils),
 * or once at an instant. {@link #next} is the first fire strictly after an instant.
 *
 * <p>Local times follow the zone's clock: a time the zone skips on the day its clocks go forward
 * (02:30 when 02:00 becomes 03:00) fires when the clock shows the same time after the gap (03:30);
 * a time the zone has twice on the day its clocks go back fires once, at the first.
 *
 * <p>Each timing has one text form, which {@link #parse} reads and {@link #text} writes: {@code
 * every 15m}, {@code daily 09:00 Europe/Paris}, {@code weekly mon,fri 09:00 Europe/Paris}, {@code
 * cron 0 9 * * 1-5 Europe/Paris}, {@code once 2026-12-05T09:00:00Z}.
 */
public sealed interface Timing {
  /** The shortest interval of {@code every}. */
  Duration MIN_INTERVAL = Duration.ofMinutes(1);

  /** The first fire strictly after {@code after}, or null when there is none. */
  Instant next(Instant after);

  /** The text form. */
  String text();

  /** Every {@code interval}, counted from {@code start}. */
  record Every(Duration interval, Instant start) implements Timing {
    public Every {
      Objects.requireNonNull(interval, "interval");
      Objects.requireNonNull(start, "start");
      if (interval.compareTo(MIN_INTERVAL) < 0) {
        throw new BadTiming("An interval is at least one minute (every 1m).");
      }
    }

    @Override
    public Instant next(Instant after) {
      if (after.isBefore(start)) {
        return start;
      }
      long n = Duration.between(start, after).toMillis() / interval.toMillis() + 1;
      return start.plus(interval.multipliedBy(n));
    }

    @Override
    public String text() {
      return "every " + duration(interval) + " from " + start;
    }
  }

  /** On {@code days} (every day when all seven) at {@code at} in {@code zone}. */
  record Weekly(Set<DayOfWeek> days, LocalTime at, ZoneId zone) implements Timing {
    public Weekly {
      days = days.isEmpty() ? EnumSet.noneOf(DayOfWeek.class) : EnumSet.copyOf(days);
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(zone, "zone");
      if (days.isEmpty()) {
        throw new BadTiming("weekly names at least one day (mon,tue,...).");
      }
    }

    @Override
    public Instant next(Instant after) {
      LocalDate day = after.atZone(zone).toLocalDate();
      for (int i = 0; i <= 8; i++, day = day.plusDays(1)) {
        if (!days.contains(day.getDayOfWeek())) {
          continue;
        }
        // ZonedDateTime.of moves a time in a gap forward by the gap, and takes the earlier of
        // two offsets in an overlap.
        Instant fire = ZonedDateTime.of(day, at, zone).toInstant();
        if (fire.isAfter(after)) {
          return fire;
        }
      }
      throw new IllegalStateException("no day of " + days + " in eight days");
    }

    @Override
    public String text() {
      String time = at.toString();
      if (days.size() == 7) {
        return "daily " + time + " " + zone.getId();
      }
      return "weekly "
          + days.stream()
              .map(d -> d.getDisplayName(TextStyle.SHORT, Locale.ROOT).toLowerCase(Locale.ROOT))
              .collect(Collectors.joining(","))
          + " "
          + time
          + " "
          + zone.getId();
    }
  }

  /** By a five-field cron expression, read in {@code zone}. */
  record CronTiming(String expression, ZoneId zone, ExecutionTime execution) implements Timing {
    static final CronParser PARSER =
        new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));

    static CronTiming of(String expression, ZoneId zone) {
      String trimmed = expression.strip().replaceAll("\\s+", " ");
      Cron cron;
      try {
        cron = PARSER.parse(trimmed).validate();
      } catch (IllegalArgumentException e) {
        throw new BadTiming(
            "'"
                + trimmed
                + "' is not a cron expression of five fields (minute hour day month weekday): "
                + e.getMessage());
      }
      return new CronTiming(trimmed, zone, ExecutionTime.forCron(cron));
    }

    @Override
    public Instant next(Instant after) {
      return execution.nextExecution(after.atZone(zone)).map(ZonedDateTime::toInstant).orElse(null);
    }

    @Override
    public String text() {
      return "cron " + expression + " " + zone.getId();
    }
  }

  /** Once, at {@code at}. */
  record Once(Instant at) implements Timing {
    public Once {
      Objects.requireNonNull(at, "at");
    }

    @Override
    public Instant next(Instant after) {
      return at.isAfter(after) ? at : null;
    }

    @Override
    public String text() {
      return "once " + at;
    }
  }

  /** A timing that cannot be; the message says what to write instead. */
  final class BadTiming extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BadTiming(String message) {
      super(message);
    }
  }

  /** A zone by its IANA name. */
  static ZoneId zone(String name) {
    try {
      return ZoneId.of(name);
    } catch (DateTimeException e) {
      throw new BadTiming("'" + name + "' is not an IANA time zone (such as Europe/Paris or UTC).");
    }
  }

  /** {@code 90s}, {@code 15m}, {@code 2h}, {@code 1d}, or an ISO-8601 duration ({@code PT15M}). */
  static Duration duration(String text) {
    Matcher m = Pattern.compile("(\\d{1,9})([smhd])").matcher(text.strip());
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new BadTiming("'" + text + "' is not an interval (such as 30m, 2h or 1d).");
    }
  }

  private static String duration(Duration d) {
    long s = d.getSeconds();
    if (s % 86_400 == 0) {
      return s / 86_400 + "d";
    }
    if (s % 3_600 == 0) {
      return s / 3_600 + "h";
    }
    if (s % 60 == 0) {
      return s / 60 + "m";
    }
    return s + "s";
  }

  /** {@code HH:MM} (or {@code HH:MM:SS}). */
  static LocalTime time(String text) {
    try {
      return LocalTime.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new BadTiming("'" + text + "' is not a time of day (HH:MM, 24 hours).");
    }
  }

  /** Days such as {@code mon,fri} or {@code mon-fri}. */
  static Set<DayOfWeek> days(String text) {
    List<DayOfWeek> all = List.of(DayOfWeek.values());
    Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
    for (String part : text.toLowerCase(Locale.ROOT).split(",")) {
      String[] range = part.strip().split("-");
      if (range.length == 1) {
        days.add(day(range[0]));
      } else if (range.length == 2) {
        int from = all.indexOf(day(range[0]));
        int to = all.indexOf(day(range[1]));
        for (int i = from; ; i = (i + 1) % 7) {
          days.add(all.get(i));
          if (i == to) {
            break;
          }
        }
      } else {
        throw new BadTiming("'" + text + "' is not a list of days (mon,wed,fri or mon-fri).");
      }
    }
    return days;
  }

  private static DayOfWeek day(String name) {
    for (DayOfWeek d : DayOfWeek.values()) {
      String shortName = d.getDisplayName(TextStyle.SHORT, Locale.ROOT).toLowerCase(Locale.ROOT);
      if (name.strip().equals(shortName)
          || name.strip().equals(d.name().toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    throw new BadTiming("'" + name + "' is not a day (mon, tue, wed, thu, fri, sat, sun).");
  }

  /** An instant: ISO-8601 with an offset or Z, or a local date-time read in {@code zone}. */
  static Instant instant(String text, ZoneId zone) {
    try {
      return java.time.OffsetDateTime.parse(text.strip()).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return java.time.LocalDateTime.parse(text.strip()).atZone(zone).toInstant();
      } catch (DateTimeParseException again) {
        throw new BadTiming(
            "'"
                + text
                + "' is not an instant (2026-12-05T09:00:00Z, or 2026-12-05T09:00 in the"
                + " zone).");
      }
    }
  }

  /** Reads the text form (as {@link #text} writes it). */
  static Timing parse(String text) {
    String[] words = text.strip().split("\\s+");
    switch (words[0]) {
      case "every":
        if (words.length == 4 && words[2].equals("from")) {
          return new Every(duration(words[1]), Instant.parse(words[3]));
        }
        break;
      case "daily":
        if (words.length == 3) {
          return new Weekly(EnumSet.allOf(DayOfWeek.class), time(words[1]), zone(words[2]));
        }
        break;
      case "weekly":
        if (words.length == 4) {
          return new Weekly(days(words[1]), time(words[2]), zone(words[3]));
        }
        break;
      case "cron":
        if (words.length == 7) {
          return CronTiming.of(String.join(" ", List.of(words).subList(1, 6)), zone(words[6]));
        }
        break;
      case "once":
        if (words.length == 2) {
          return new Once(Instant.parse(words[1]));
        }
        break;
      default:
        break;
    }
    throw new BadTiming("'" + text + "' is not a timing.");
  }
}
