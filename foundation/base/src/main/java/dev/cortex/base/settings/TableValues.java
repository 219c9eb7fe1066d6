package dev.cortex.base.settings;

import dev.cortex.base.StartupException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The values of one settings table, from {@code cortex.toml} with environment variables over them,
 * and typed readers that name where a wrong value came from: {@code cortex.toml: [server] hub_port}
 * or {@code CORTEX_CLIENT_PORT}. A value from a variable is text and is parsed; a value from the
 * file must already have the right TOML type.
 */
public final class TableValues {
  private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  private final String table;
  private final Path configDir;
  private final Map<String, Value> values = new LinkedHashMap<>();

  /** A value and where it came from. */
  private record Value(JsonNode node, String text, String source) {}

  TableValues(String table, Path configDir) {
    this.table = table;
    this.configDir = configDir;
  }

  void fromFile(String key, JsonNode node, Path file) {
    values.put(key, new Value(node, null, file + ": [" + table + "] " + key));
  }

  void fromVariable(String key, String text, String variable) {
    values.put(key, new Value(null, text, variable));
  }

  /** Values with nothing set: every reader returns its fallback. */
  public static TableValues empty(String table, Path configDir) {
    return new TableValues(table, configDir);
  }

  /** The directory relative paths are resolved against. */
  public Path configDir() {
    return configDir;
  }

  /** Every key that was set, in the file's order, then those set by variables only. */
  public java.util.Set<String> keys() {
    return java.util.Collections.unmodifiableSet(values.keySet());
  }

  /** Whether the key was set in the file or the environment. */
  public boolean has(String key) {
    return values.containsKey(key);
  }

  /** A problem with the value of {@code key}, naming where it came from. */
  public StartupException problem(String key, String message) {
    Value value = values.get(key);
    String source = value == null ? "[" + table + "] " + key : value.source();
    return new StartupException(source + ": " + message);
  }

  /** A non-empty string, stripped. */
  public String string(String key, String fallback) {
    Value value = values.get(key);
    if (value == null) {
      return fallback;
    }
    String text =
        value.text() != null
            ? value.text()
            : value.node().isString() ? value.node().asString() : null;
    if (text == null || text.isBlank()) {
      throw problem(key, "expected a non-empty string");
    }
    return text.strip();
  }

  /** One of {@code allowed}. */
  public String oneOf(String key, String fallback, String... allowed) {
    String text = string(key, fallback);
    if (has(key) && !Arrays.asList(allowed).contains(text)) {
      throw problem(
          key, "'" + text + "' is not allowed; use one of: " + String.join(", ", allowed));
    }
    return text;
  }

  /**
   * A list of non-empty strings, stripped: a TOML array of strings, or from a variable the text
   * split at commas. Null when the key is not set; an empty list is a problem.
   */
  public java.util.List<String> strings(String key) {
    Value value = values.get(key);
    if (value == null) {
      return null;
    }
    java.util.List<String> items = new java.util.ArrayList<>();
    if (value.text() != null) {
      for (String item : value.text().split(",", -1)) {
        items.add(item.strip());
      }
    } else if (value.node().isArray()) {
      for (JsonNode item : value.node()) {
        items.add(item.isString() ? item.asString().strip() : "");
      }
    } else {
      throw problem(key, "expected a list of strings, e.g. [\"a\", \"b\"]");
    }
    if (items.isEmpty() || items.contains("")) {
      throw problem(key, "expected a list of non-empty strings, e.g. [\"a\", \"b\"]");
    }
    return java.util.List.copyOf(items);
  }

  /** A whole number from {@code min} to {@code max}. */
  public long integer(String key, long fallback, long min, long max) {
    Value value = values.get(key);
    if (value == null) {
      return fallback;
    }
    long number;
    if (value.text() != null) {
      try {
        number = Long.parseLong(value.text().strip());
      } catch (NumberFormatException e) {
        throw problem(key, "expected a whole number from " + min + " to " + max);
      }
    } else if (value.node().isIntegralNumber() && value.node().canConvertToLong()) {
      number = value.node().asLong();
    } else {
      throw problem(key, "expected a whole number from " + min + " to " + max);
    }
    if (number < min || number > max) {
      throw problem(key, number + " is out of range: use " + min + " to " + max);
    }
    return number;
  }

  /** A TCP port, 0 (any free port) to 65535. */
  public int port(String key, int fallback) {
    return (int) integer(key, fallback, 0, 65535);
  }

  /** {@code true} or {@code false}. */
  public boolean bool(String key, boolean fallback) {
    Value value = values.get(key);
    if (value == null) {
      return fallback;
    }
    if (value.text() != null) {
      String text = value.text().strip();
      if (text.equals("true") || text.equals("1")) {
        return true;
      }
      if (text.equals("false") || text.equals("0")) {
        return false;
      }
    } else if (value.node().isBoolean()) {
      return value.node().asBoolean();
    }
    throw problem(key, "expected true or false");
  }

  /** A duration such as {@code 500ms}, {@code 30s}, {@code 5m} or {@code 1h}. */
  public Duration duration(String key, Duration fallback) {
    if (!has(key)) {
      return fallback;
    }
    String text = string(key, null);
    Matcher matcher = DURATION.matcher(text);
    if (!matcher.matches()) {
      throw problem(key, "'" + text + "' is not a duration such as 500ms, 30s, 5m or 1h");
    }
    long amount = Long.parseLong(matcher.group(1));
    return switch (matcher.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }

  /** A decimal number from {@code min} to {@code max}, or null when the key is not set. */
  public Double decimal(String key, double min, double max) {
    Value value = values.get(key);
    if (value == null) {
      return null;
    }
    double number;
    if (value.text() != null) {
      try {
        number = Double.parseDouble(value.text().strip());
      } catch (NumberFormatException e) {
        throw problem(key, "expected a number from " + min + " to " + max);
      }
    } else if (value.node().isNumber()) {
      number = value.node().asDouble();
    } else {
      throw problem(key, "expected a number from " + min + " to " + max);
    }
    if (!(number >= min && number <= max)) {
      throw problem(key, number + " is out of range: use " + min + " to " + max);
    }
    return number;
  }

  /**
   * A nested table of the file (e.g. {@code [budgets.projects.api]}) as its entries; empty when not
   * set. Only the file can set one.
   */
  public Map<String, JsonNode> table(String key) {
    Value value = values.get(key);
    if (value == null) {
      return Map.of();
    }
    if (value.node() == null || !value.node().isObject()) {
      throw problem(key, "expected a table");
    }
    Map<String, JsonNode> entries = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : value.node().properties()) {
      entries.put(entry.getKey(), entry.getValue());
    }
    return entries;
  }

  /** The source of {@code key} with a sub-key, for messages: {@code FILE: [t] key.sub}. */
  public StartupException problem(String key, String sub, String message) {
    Value value = values.get(key);
    String source = value == null ? "[" + table + "] " + key : value.source();
    return new StartupException(source + "." + sub + ": " + message);
  }

  /** A readable file; relative paths are taken from the configuration directory. */
  public Path readableFile(String key) {
    if (!has(key)) {
      return null;
    }
    Path path = configDir.resolve(string(key, null));
    if (!Files.isReadable(path)) {
      throw problem(key, "cannot read " + path);
    }
    return path;
  }

  /** The name of an environment variable (which holds a secret, for example). */
  public String variableName(String key) {
    if (!has(key)) {
      return null;
    }
    String name = string(key, null);
    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw problem(key, "'" + name + "' is not an environment variable name");
    }
    return name;
  }
}
