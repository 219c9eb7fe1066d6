package dev.cortex.workflows;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [workflows]} table of {@code cortex.toml}: which engine runs workflows, {@code
 * embedded} (the default) or {@code temporal}; {@code CORTEX_WORKFLOWS_ENGINE} overrides it.
 */
public record EngineChoice(String engine) {
  public static final String EMBEDDED = "embedded";
  public static final String TEMPORAL = "temporal";

  public static final SettingsTable<EngineChoice> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "workflows";
        }

        @Override
        public Set<String> keys() {
          return Set.of("engine");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of("CORTEX_WORKFLOWS_ENGINE", "engine");
        }

        @Override
        public EngineChoice read(TableValues values) {
          String engine = values.string("engine", EMBEDDED);
          if (!engine.equals(EMBEDDED) && !engine.equals(TEMPORAL)) {
            throw values.problem(
                "engine", "'" + engine + "' is not an engine; use \"embedded\" or \"temporal\"");
          }
          return new EngineChoice(engine);
        }
      };

  public boolean temporal() {
    return engine.equals(TEMPORAL);
  }
}
