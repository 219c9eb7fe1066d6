package dev.cortex.server.daemon;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [devices]} table of {@code cortex.toml}: enrolment and limits of the device hub.
 *
 * <pre>
 * [devices]
 * enrolment_valid_for = "15m"    # how long a code of 'cortex server enroll' may be used
 * max_devices = 64               # connections the hub holds at once
 * max_commands = 128             # remote commands in flight at once, across devices
 * </pre>
 */
public record DeviceSettings(Duration enrolmentValidFor, int maxDevices, int maxCommands) {
  public static final DeviceSettings DEFAULTS = new DeviceSettings(Duration.ofMinutes(15), 64, 128);

  public static final SettingsTable<DeviceSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "devices";
        }

        @Override
        public Set<String> keys() {
          return Set.of("enrolment_valid_for", "max_devices", "max_commands");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of();
        }

        @Override
        public DeviceSettings read(TableValues values) {
          Duration valid = values.duration("enrolment_valid_for", DEFAULTS.enrolmentValidFor());
          if (valid.isZero() || valid.compareTo(Duration.ofDays(7)) > 0) {
            throw values.problem("enrolment_valid_for", "use a duration from 1s to 168h");
          }
          return new DeviceSettings(
              valid,
              (int) values.integer("max_devices", DEFAULTS.maxDevices(), 1, 10_000),
              (int) values.integer("max_commands", DEFAULTS.maxCommands(), 1, 10_000));
        }
      };
}
