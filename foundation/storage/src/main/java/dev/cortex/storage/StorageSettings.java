package dev.cortex.storage;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [storage]} table of {@code cortex.toml}: how commits reach the disk.
 *
 * <pre>
 * [storage]
 * synchronous = "FULL"           # or "NORMAL" (the default); CORTEX_SQLITE_SYNCHRONOUS wins
 * </pre>
 */
public record StorageSettings(Synchronous synchronous) {
  public static final SettingsTable<StorageSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "storage";
        }

        @Override
        public Set<String> keys() {
          return Set.of("synchronous");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of(Synchronous.VARIABLE, "synchronous");
        }

        @Override
        public StorageSettings read(TableValues values) {
          String text = values.string("synchronous", Synchronous.NORMAL.name());
          try {
            return new StorageSettings(Synchronous.parse("synchronous", text));
          } catch (IllegalArgumentException e) {
            throw values.problem(
                "synchronous", "'" + text + "' is not a synchronous mode; use NORMAL or FULL");
          }
        }
      };
}
