package dev.cortex.base.settings;

import java.util.Map;
import java.util.Set;

/**
 * One table of {@code cortex.toml} (for example {@code [server]}), owned by the module it
 * configures: its keys, the environment variables that override them, and how its values become
 * that module's settings record.
 *
 * @param <T> the settings record the table reads into
 */
public interface SettingsTable<T> {
  /** The table's name, e.g. {@code server} for {@code [server]}. */
  String name();

  /** Every key the table knows; any other stops start-up (unless the table has open keys). */
  Set<String> keys();

  /**
   * Whether the table's keys are names the user chooses (as {@code [models]}' are): then any key
   * passes the check against {@link #keys()}, and the table refuses in {@link #read} what it does
   * not know, through {@link TableValues#problem}.
   */
  default boolean openKeys() {
    return false;
  }

  /** Environment variables that override keys of this table: variable name to key. */
  Map<String, String> variables();

  /**
   * Reads the table's settings. Keys absent from both the file and the environment take the
   * module's defaults.
   *
   * @throws dev.cortex.base.StartupException through {@link TableValues}' readers, naming the file
   *     and key (or the variable) of a wrong value
   */
  T read(TableValues values);

  /**
   * A table whose keys are names the user chooses ({@link #openKeys()}), with no environment
   * variables, read by {@code reader}.
   */
  static <T> SettingsTable<T> open(
      String name, java.util.function.Function<TableValues, T> reader) {
    return new SettingsTable<>() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Set<String> keys() {
        return Set.of();
      }

      @Override
      public boolean openKeys() {
        return true;
      }

      @Override
      public Map<String, String> variables() {
        return Map.of();
      }

      @Override
      public T read(TableValues values) {
        return reader.apply(values);
      }
    };
  }
}
