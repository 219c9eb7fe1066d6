package dev.cortex.core;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** {@code current_time}: the current date and time, in UTC and in a chosen or local zone. */
final class CurrentTime {
  static final String NAME = "current_time";

  private CurrentTime() {}

  /** Arguments of {@code current_time}. */
  record Arguments(String timezone) {}

  /** Result of {@code current_time}. */
  record Result(
      long unixTimestamp,
      String utc,
      String local,
      String timezone,
      String utcOffset,
      String dayOfWeek) {}

  static ToolSpec spec() {
    return ToolSpec.builder(NAME, CurrentTime::handle)
        .title("Current time")
        .description(
            "Gets the current date and time. Returns the Unix timestamp (seconds), the UTC time in ISO"
                + " 8601, and the wall-clock time with its offset in the requested IANA time zone"
                + " (default: the server's local zone).")
        .input(
            Schema.object()
                .optional(
                    "timezone",
                    Schema.withExamples(
                        Schema.string(
                            "IANA time zone such as 'Europe/Berlin', 'America/New_York' or 'UTC'."
                                + " Defaults to the server's local time zone.",
                            1,
                            64),
                        "Europe/Berlin",
                        "America/New_York",
                        "UTC"))
                .build())
        .output(
            Schema.object()
                .required("unix_timestamp", Schema.integer("Seconds since 1970-01-01T00:00:00Z."))
                .required("utc", Schema.instant("UTC time, e.g. 2026-11-30T09:15:00Z."))
                .required(
                    "local",
                    Schema.instant("Wall-clock time with offset, e.g. 2026-11-30T10:15:00+01:00."))
                .required("timezone", Schema.string("The IANA zone the local time is in."))
                .required(
                    "utc_offset",
                    Schema.string("Offset of the zone from UTC now, e.g. +01:00 or Z."))
                .required("day_of_week", Schema.string("Day of the week in the zone, e.g. Monday."))
                .build())
        .hints(new ToolHints(true, false, false, false))
        .warmUpWith(java.util.Map.of("timezone", "UTC"))
        .build();
  }

  static Result handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    ZoneId zone =
        args.timezone() == null ? call.context().clock().getZone() : zone(args.timezone());
    Instant now = call.context().clock().instant().truncatedTo(ChronoUnit.SECONDS);
    ZonedDateTime local = now.atZone(zone);
    return new Result(
        now.getEpochSecond(),
        DateTimeFormatter.ISO_INSTANT.format(now),
        DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(local),
        zone.getId(),
        local.getOffset().getId(),
        local.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH));
  }

  private static final class Zones {
    static final java.util.Set<String> IANA = java.util.Set.copyOf(ZoneId.getAvailableZoneIds());
  }

  private static ZoneId zone(String name) {
    try {
      String id = name.strip();
      if (!Zones.IANA.contains(id)) {
        // Offsets such as '+05:30' or 'GMT+2' parse, but they are not IANA zones.
        throw new DateTimeException(id);
      }
      return ZoneId.of(id);
    } catch (DateTimeException e) {
      throw ToolException.invalidArgument(
          "Unknown time zone '"
              + name
              + "'. Use an IANA name such as 'Europe/Berlin', 'Asia/Tokyo' or 'UTC'.");
    }
  }
}
