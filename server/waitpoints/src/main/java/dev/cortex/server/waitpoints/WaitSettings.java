package dev.cortex.server.waitpoints;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [waitpoints]} table of {@code cortex.toml}.
 *
 * <pre>
 * [waitpoints]
 * coalesce = "3s"            # once a quorum of several is reached, reports arriving this soon join the wake
 * max_wakes_per_hour = 20    # wakes one waitpoint may cause in an hour; later ones wait and come together
 * keep_resolved = "720h"     # how long an ended waitpoint is kept, so a late signal hears "already resolved"
 * </pre>
 */
public record WaitSettings(Duration coalesce, int maxWakesPerHour, Duration keepResolved) {
  public static final WaitSettings DEFAULTS =
      new WaitSettings(Duration.ofSeconds(3), 20, Duration.ofDays(30));

  public static final SettingsTable<WaitSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "waitpoints";
        }

        @Override
        public Set<String> keys() {
          return Set.of("coalesce", "max_wakes_per_hour", "keep_resolved");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of();
        }

        @Override
        public WaitSettings read(TableValues values) {
          Duration coalesce = values.duration("coalesce", DEFAULTS.coalesce());
          if (coalesce.isNegative() || coalesce.compareTo(Duration.ofMinutes(1)) > 0) {
            throw values.problem("coalesce", "use a duration from 0s to 60s");
          }
          Duration keep = values.duration("keep_resolved", DEFAULTS.keepResolved());
          if (keep.compareTo(Duration.ofHours(1)) < 0 || keep.compareTo(Duration.ofDays(365)) > 0) {
            throw values.problem("keep_resolved", "use a duration from 1h to 8760h (365 days)");
          }
          return new WaitSettings(
              coalesce,
              (int) values.integer("max_wakes_per_hour", DEFAULTS.maxWakesPerHour(), 1, 1000),
              keep);
        }
      };
}
