package dev.cortex.mcp.tool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the JSON Schema documents of tool inputs and outputs. Objects are closed by default
 * ({@code additionalProperties: false}) so that a misspelt argument is an error, not a silent
 * no-op.
 */
public final class Schema {
  private Schema() {}

  /** Starts a closed object schema. */
  public static ObjectBuilder object() {
    return new ObjectBuilder();
  }

  public static Map<String, Object> string(String description) {
    return node("string", description);
  }

  /** A string with length bounds; pass {@code -1} to leave a bound open. */
  public static Map<String, Object> string(String description, int minLength, int maxLength) {
    Map<String, Object> schema = node("string", description);
    if (minLength >= 0) {
      schema.put("minLength", minLength);
    }
    if (maxLength >= 0) {
      schema.put("maxLength", maxLength);
    }
    return schema;
  }

  public static Map<String, Object> pattern(String description, String regex) {
    Map<String, Object> schema = node("string", description);
    schema.put("pattern", regex);
    return schema;
  }

  public static Map<String, Object> integer(String description) {
    return node("integer", description);
  }

  public static Map<String, Object> integer(String description, long minimum, long maximum) {
    Map<String, Object> schema = node("integer", description);
    schema.put("minimum", minimum);
    schema.put("maximum", maximum);
    return schema;
  }

  public static Map<String, Object> number(String description) {
    return node("number", description);
  }

  public static Map<String, Object> number(String description, double minimum, double maximum) {
    Map<String, Object> schema = node("number", description);
    schema.put("minimum", minimum);
    schema.put("maximum", maximum);
    return schema;
  }

  public static Map<String, Object> bool(String description) {
    return node("boolean", description);
  }

  public static Map<String, Object> enumOf(String description, String... values) {
    Map<String, Object> schema = node("string", description);
    schema.put("enum", List.of(values));
    return schema;
  }

  public static Map<String, Object> array(
      String description, Map<String, Object> items, int minItems, int maxItems, boolean unique) {
    Map<String, Object> schema = node("array", description);
    schema.put("items", items);
    if (minItems > 0) {
      schema.put("minItems", minItems);
    }
    if (maxItems > 0) {
      schema.put("maxItems", maxItems);
    }
    if (unique) {
      schema.put("uniqueItems", true);
    }
    return schema;
  }

  /**
   * Any JSON value (what a caller's own data holds), spelt as a choice of the six JSON types so
   * that every client sees a typed schema; repeated, it becomes one shared definition (see {@link
   * SharedDefinitions}).
   */
  public static Map<String, Object> any(String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    if (description != null) {
      schema.put("description", description);
    }
    schema.put("anyOf", ANY_JSON);
    return schema;
  }

  static final List<Map<String, Object>> ANY_JSON =
      List.of(
          Map.of("type", "object"),
          Map.of("type", "array"),
          Map.of("type", "string"),
          Map.of("type", "number"),
          Map.of("type", "boolean"),
          Map.of("type", "null"));

  /** {@code schema} with a {@code default}: the value a tool uses when the caller gives none. */
  public static Map<String, Object> withDefault(Map<String, Object> schema, Object value) {
    return with(schema, "default", value);
  }

  /** {@code schema} with a {@code format}, such as {@code date-time} or {@code uri}. */
  public static Map<String, Object> withFormat(Map<String, Object> schema, String format) {
    return with(schema, "format", format);
  }

  /** {@code schema} with {@code examples} of valid values. */
  public static Map<String, Object> withExamples(Map<String, Object> schema, Object... values) {
    return with(schema, "examples", List.of(values));
  }

  /** An ISO 8601 instant with offset ({@code format: date-time}). */
  public static Map<String, Object> instant(String description) {
    return withFormat(string(description), "date-time");
  }

  private static Map<String, Object> with(Map<String, Object> schema, String key, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put(key, value);
    return copy;
  }

  /**
   * An object used as a map: keys matching {@code keyPattern}, each value of {@code values}. Closed
   * in the sense that matters: no key outside the pattern, no value outside the schema.
   */
  public static Map<String, Object> map(
      String description, String keyPattern, Map<String, Object> values) {
    Map<String, Object> schema = node("object", description);
    schema.put("propertyNames", Map.of("pattern", keyPattern));
    schema.put("additionalProperties", values);
    return Collections.unmodifiableMap(schema);
  }

  /** An object that is one of {@code branches}, each an object schema of its own. */
  @SafeVarargs
  public static Map<String, Object> anyOf(String description, Map<String, Object>... branches) {
    Map<String, Object> schema = node("object", description);
    schema.put("anyOf", List.of(branches));
    return Collections.unmodifiableMap(schema);
  }

  /**
   * A value that may also be JSON {@code null}: {@code anyOf} the schema and {@code null}, with the
   * description outside both (a {@code type} array would say the same, but clients that map tool
   * schemas onto a dialect of one type per schema reject it).
   */
  public static Map<String, Object> nullable(Map<String, Object> schema) {
    Map<String, Object> value = new LinkedHashMap<>(schema);
    Object description = value.remove("description");
    Map<String, Object> copy = new LinkedHashMap<>();
    if (description != null) {
      copy.put("description", description);
    }
    copy.put("anyOf", List.of(value, NULL));
    return copy;
  }

  private static final Map<String, Object> NULL = Map.of("type", "null");

  private static Map<String, Object> node(String type, String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", type);
    if (description != null) {
      schema.put("description", description);
    }
    return schema;
  }

  /** Builder of an object schema; properties keep their declaration order. */
  public static final class ObjectBuilder {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();
    private String description;
    private boolean closed = true;

    private ObjectBuilder() {}

    public ObjectBuilder description(String text) {
      this.description = text;
      return this;
    }

    /** Adds an optional property. */
    public ObjectBuilder optional(String name, Map<String, Object> schema) {
      if (properties.put(name, schema) != null) {
        throw new IllegalArgumentException("property declared twice: " + name);
      }
      return this;
    }

    /** Adds a required property. */
    public ObjectBuilder required(String name, Map<String, Object> schema) {
      optional(name, schema);
      required.add(name);
      return this;
    }

    /** Lets the object carry properties that are not declared (for free-form maps). */
    public ObjectBuilder open() {
      this.closed = false;
      return this;
    }

    public Map<String, Object> build() {
      Map<String, Object> schema = new LinkedHashMap<>();
      schema.put("type", "object");
      if (description != null) {
        schema.put("description", description);
      }
      schema.put("properties", Collections.unmodifiableMap(new LinkedHashMap<>(properties)));
      if (!required.isEmpty()) {
        schema.put("required", List.copyOf(required));
      }
      schema.put("additionalProperties", !closed);
      return Collections.unmodifiableMap(schema);
    }
  }
}
