package dev.cortex.server.sessions;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [sessions]} table of {@code cortex.toml}.
 *
 * <pre>
 * [sessions]
 * backend = "claude"            # the backend of a new session unless it names one
 * model = "claude-sonnet-4-5"   # its model (default: the backend's own)
 * max_turn = "2h"               # a turn still running after this is stopped and fails
 * </pre>
 */
public record SessionSettings(String backend, String model, Duration maxTurn) {
  public static final SessionSettings DEFAULTS =
      new SessionSettings("claude", null, Duration.ofHours(2));

  public static final SettingsTable<SessionSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "sessions";
        }

        @Override
        public Set<String> keys() {
          return Set.of("backend", "model", "max_turn");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of("CORTEX_SESSION_BACKEND", "backend", "CORTEX_SESSION_MODEL", "model");
        }

        @Override
        public SessionSettings read(TableValues values) {
          Duration maxTurn = values.duration("max_turn", DEFAULTS.maxTurn());
          if (maxTurn.compareTo(Duration.ofMinutes(1)) < 0
              || maxTurn.compareTo(Duration.ofDays(2)) > 0) {
            throw values.problem("max_turn", "use a duration from 1m to 48h");
          }
          return new SessionSettings(
              values.oneOf("backend", DEFAULTS.backend(), "claude", "api", "command"),
              values.string("model", null),
              maxTurn);
        }
      };
}
