package dev.cortex.base.settings;

import dev.cortex.base.StartupException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.toml.TomlMapper;

/**
 * The user's settings: {@code $CORTEX_HOME/config/cortex.toml}, then environment variables over it,
 * split into tables that the modules own ({@link SettingsTable}). The command line composes the
 * tables it knows; a table or key that none of them knows stops start-up naming the file and the
 * key, and so does a wrong value. Without a file and without any variable nothing is parsed, so an
 * installation without settings starts as fast as before.
 */
public final class CortexToml {
  /** The settings file's name in the configuration directory. */
  public static final String FILE = "cortex.toml";

  private final Map<SettingsTable<?>, Object> read = new IdentityHashMap<>();

  private CortexToml() {}

  /**
   * Reads every table from {@code configDir}'s {@value #FILE} (if present) and {@code env}.
   *
   * @throws StartupException naming the file and key, or the variable, of the first problem
   */
  public static CortexToml load(
      Path configDir, Map<String, String> env, List<SettingsTable<?>> tables) {
    Map<String, SettingsTable<?>> byName = new LinkedHashMap<>();
    for (SettingsTable<?> table : tables) {
      if (byName.put(table.name(), table) != null) {
        throw new IllegalArgumentException("settings table registered twice: " + table.name());
      }
    }
    Path file = configDir.resolve(FILE);
    JsonNode tree = Files.isRegularFile(file) ? parse(file) : null;
    if (tree != null) {
      checkNames(file, tree, byName);
    }
    CortexToml settings = new CortexToml();
    for (SettingsTable<?> table : tables) {
      TableValues values = new TableValues(table.name(), configDir);
      JsonNode section = tree == null ? null : tree.get(table.name());
      if (section != null) {
        for (Map.Entry<String, JsonNode> entry : section.properties()) {
          values.fromFile(entry.getKey(), entry.getValue(), file);
        }
      }
      table
          .variables()
          .forEach(
              (variable, key) -> {
                String value = env.get(variable);
                if (value != null && !value.isBlank()) {
                  values.fromVariable(key, value, variable);
                }
              });
      settings.read.put(table, Objects.requireNonNull(table.read(values), table.name()));
    }
    return settings;
  }

  /** The settings of {@code table}, which must have been passed to {@link #load}. */
  public <T> T get(SettingsTable<T> table) {
    Object value = read.get(table);
    if (value == null) {
      throw new IllegalArgumentException("settings table not loaded: " + table.name());
    }
    @SuppressWarnings("unchecked")
    T typed = (T) value;
    return typed;
  }

  private static void checkNames(Path file, JsonNode tree, Map<String, SettingsTable<?>> tables) {
    for (Map.Entry<String, JsonNode> entry : tree.properties()) {
      SettingsTable<?> table = tables.get(entry.getKey());
      if (table == null || !entry.getValue().isObject()) {
        throw new StartupException(
            file
                + ": unknown table or key '"
                + entry.getKey()
                + "' (known tables: "
                + String.join(", ", tables.keySet().stream().map(n -> "[" + n + "]").toList())
                + ")");
      }
      for (Map.Entry<String, JsonNode> key : entry.getValue().properties()) {
        if (!table.openKeys() && !table.keys().contains(key.getKey())) {
          throw new StartupException(
              file
                  + ": unknown key ["
                  + table.name()
                  + "] "
                  + key.getKey()
                  + " (known: "
                  + String.join(", ", new TreeSet<>(table.keys()))
                  + ")");
        }
      }
    }
  }

  private static JsonNode parse(Path file) {
    try {
      JsonNode tree = new TomlMapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
      return tree == null
          ? tools.jackson.databind.node.JsonNodeFactory.instance.objectNode()
          : tree;
    } catch (IOException e) {
      throw new StartupException("cannot read " + file + ": " + e.getMessage());
    } catch (JacksonException e) {
      throw new StartupException(file + " is not valid TOML: " + e.getOriginalMessage());
    }
  }
}
