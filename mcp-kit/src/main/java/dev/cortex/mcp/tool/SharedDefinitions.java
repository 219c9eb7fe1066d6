package dev.cortex.mcp.tool;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes each part that an output schema repeats once: a subschema that occurs twice or more (its
 * description aside) moves to the schema's {@code $defs}, named after the first property that holds
 * it, and every occurrence becomes a {@code $ref} to it, keeping its own description. The schema
 * accepts exactly what it accepted before; it is only shorter.
 *
 * <p>Only output schemas are shared this way. Input schemas stay inline: they are what a model
 * reads to call a tool, and some clients resolve no {@code $ref} there.
 */
final class SharedDefinitions {
  private static final String DEFS = "$defs";
  private static final String PREFIX = "#/$defs/";

  private SharedDefinitions() {}

  /** {@code schema} with its repeated parts shared; a schema that has {@code $defs} is kept. */
  static Map<String, Object> share(Map<String, Object> schema) {
    if (schema.containsKey(DEFS)) {
      return schema;
    }
    Map<String, Object> root = copy(schema);
    Map<String, Object> defs = new LinkedHashMap<>();
    while (true) {
      Map<Map<String, Object>, Occurrences> seen = new LinkedHashMap<>();
      collect(root, "schema", seen, true);
      for (Map.Entry<String, Object> def : defs.entrySet()) {
        collect(def.getValue(), def.getKey(), seen, true);
      }
      Occurrences best = null;
      for (Occurrences each : seen.values()) {
        if (each.count >= 2
            && each.saving() > 0
            && (best == null || each.saving() > best.saving())) {
          best = each;
        }
      }
      if (best == null) {
        break;
      }
      String name =
          unique(best.shape.equals(Map.of("anyOf", Schema.ANY_JSON)) ? "json" : best.name, defs);
      defs.put(name, best.shape);
      replace(root, best.shape, name);
      for (Object def : defs.values()) {
        replace(def, best.shape, name);
      }
    }
    if (defs.isEmpty()) {
      return schema;
    }
    root.put(DEFS, defs);
    return Collections.unmodifiableMap(root);
  }

  /** How often one shape occurs, and the name of the property that first holds it. */
  private static final class Occurrences {
    final Map<String, Object> shape;
    final String name;
    private int chars = -1;
    int count;

    Occurrences(Map<String, Object> shape, String name) {
      this.shape = shape;
      this.name = name;
    }

    /** The shape's length as compact JSON, reckoned once, when it is asked for. */
    int chars() {
      if (chars < 0) {
        chars = length(shape);
      }
      return chars;
    }

    /**
     * The characters sharing saves: each occurrence shrinks to a reference, and the definition is
     * written once.
     */
    int saving() {
      int reference = "{\"$ref\":\"#/$defs/\"}".length() + name.length();
      int definition = chars() + name.length() + 3;
      return count * (chars() - reference) - definition;
    }
  }

  /** Counts every subschema of {@code node} by its shape (the schema less its description). */
  private static void collect(
      Object node, String name, Map<Map<String, Object>, Occurrences> seen, boolean isRoot) {
    if (node instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Map<String, Object> schema = (Map<String, Object>) map;
      if (!isRoot && !schema.containsKey("$ref")) {
        Map<String, Object> shape = shape(schema);
        seen.computeIfAbsent(shape, k -> new Occurrences(shape, name)).count++;
      }
      for (Map.Entry<String, Object> entry : schema.entrySet()) {
        String key = entry.getKey();
        Object value = entry.getValue();
        switch (key) {
          case "properties", "$defs" -> {
            if (value instanceof Map<?, ?> properties) {
              for (Map.Entry<?, ?> property : properties.entrySet()) {
                collect(property.getValue(), String.valueOf(property.getKey()), seen, false);
              }
            }
          }
          case "items" -> collect(value, name + "_item", seen, false);
          case "additionalProperties" -> collect(value, name + "_value", seen, false);
          case "anyOf", "oneOf", "allOf" -> {
            if (value instanceof List<?> branches) {
              for (Object branch : branches) {
                collect(branch, name, seen, false);
              }
            }
          }
          default -> {}
        }
      }
    }
  }

  /** Replaces each subschema of shape {@code key} below {@code node} by a reference to it. */
  @SuppressWarnings("unchecked")
  private static void replace(Object node, Map<String, Object> key, String name) {
    if (!(node instanceof Map<?, ?> map)) {
      return;
    }
    Map<String, Object> schema = (Map<String, Object>) map;
    for (Map.Entry<String, Object> entry : schema.entrySet()) {
      switch (entry.getKey()) {
        case "properties", "$defs" -> {
          if (entry.getValue() instanceof Map<?, ?> properties) {
            for (Map.Entry<String, Object> property :
                ((Map<String, Object>) properties).entrySet()) {
              property.setValue(swapped(property.getValue(), key, name));
            }
          }
        }
        case "items", "additionalProperties" ->
            entry.setValue(swapped(entry.getValue(), key, name));
        case "anyOf", "oneOf", "allOf" -> {
          if (entry.getValue() instanceof List<?> branches) {
            List<Object> swapped = new ArrayList<>();
            for (Object branch : branches) {
              swapped.add(swapped(branch, key, name));
            }
            entry.setValue(swapped);
          }
        }
        default -> {}
      }
    }
  }

  /** {@code node} as a reference when it has shape {@code key}, else with its children swapped. */
  private static Object swapped(Object node, Map<String, Object> key, String name) {
    if (!(node instanceof Map<?, ?> map)) {
      return node;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> schema = (Map<String, Object>) map;
    if (!schema.containsKey("$ref") && shape(schema).equals(key)) {
      Map<String, Object> reference = new LinkedHashMap<>();
      if (schema.get("description") != null) {
        reference.put("description", schema.get("description"));
      }
      reference.put("$ref", PREFIX + name);
      return reference;
    }
    replace(schema, key, name);
    return schema;
  }

  /** The length of {@code node} as compact JSON (strings counted unescaped). */
  static int length(Object node) {
    if (node instanceof Map<?, ?> map) {
      int length = 2 + Math.max(0, map.size() - 1);
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        length += String.valueOf(entry.getKey()).length() + 3 + length(entry.getValue());
      }
      return length;
    }
    if (node instanceof List<?> list) {
      int length = 2 + Math.max(0, list.size() - 1);
      for (Object item : list) {
        length += length(item);
      }
      return length;
    }
    if (node instanceof String text) {
      return text.length() + 2;
    }
    return String.valueOf(node).length();
  }

  private static Map<String, Object> shape(Map<String, Object> schema) {
    Map<String, Object> shape = new LinkedHashMap<>(schema);
    shape.remove("description");
    return shape;
  }

  private static String unique(String name, Map<String, Object> defs) {
    String base = name.replaceAll("[^A-Za-z0-9_]", "_");
    String candidate = base;
    for (int i = 2; defs.containsKey(candidate); i++) {
      candidate = base + "_" + i;
    }
    return candidate;
  }

  /** A deep, mutable copy of a schema document. */
  @SuppressWarnings("unchecked")
  private static <T> T copy(T node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), copy(v)));
      return (T) copy;
    }
    if (node instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(copy(v)));
      return (T) copy;
    }
    return node;
  }
}
