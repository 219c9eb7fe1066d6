package dev.cortex.server.sessions;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [team]} table of {@code cortex.toml}: team mode, in which a main session runs
 * persistent worker sessions with the {@code workers} group's tools. Read when the agent server
 * starts.
 *
 * <pre>
 * [team]
 * enabled = true   # web: sessions get the workers group (default false)
 * cli = true       # cli: sessions too, for people at a terminal (default false)
 * </pre>
 *
 * @param enabled whether main sessions on {@code web:} get the {@code workers} group
 * @param cli whether main sessions on {@code cli:} get it too (only when {@code enabled})
 */
public record TeamSettings(boolean enabled, boolean cli) {
  public static final TeamSettings OFF = new TeamSettings(false, false);

  /** Whether a main session on a channel of {@code kind} gets the {@code workers} group. */
  public boolean mainOn(String kind) {
    return enabled && (kind.equals("web") || (cli && kind.equals("cli")));
  }

  public static final SettingsTable<TeamSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "team";
        }

        @Override
        public Set<String> keys() {
          return Set.of("enabled", "cli");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of("CORTEX_TEAM_ENABLED", "enabled", "CORTEX_TEAM_CLI", "cli");
        }

        @Override
        public TeamSettings read(TableValues values) {
          return new TeamSettings(values.bool("enabled", false), values.bool("cli", false));
        }
      };
}
