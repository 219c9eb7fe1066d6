package dev.cortex.workflows.manifest;

import dev.cortex.base.Json;
import java.util.List;
import java.util.Map;

/**
 * The manifest reference in Markdown, generated from {@link ManifestSchema#schema()}, the schema
 * the loader validates every manifest against, so that the published reference cannot drift from
 * the code.
 */
public final class SchemaReference {
  private SchemaReference() {}

  /** The reference: a table per object of the manifest, the capabilities, and the schema itself. */
  public static String markdown() {
    Map<String, Object> root = ManifestSchema.schema();
    Map<String, Object> properties = properties(root);
    StringBuilder out = new StringBuilder();
    out.append("# Manifest schema\n\n")
        .append("Generated from the code of this version: the JSON Schema (2020-12) every manifest")
        .append(" is validated against when it loads, rendered as tables, then given whole. Every")
        .append(" object is closed: a field not listed here is an error.\n");
    section(out, "The manifest", "", root);
    section(
        out,
        "A parameter",
        "`parameters.<name>`; names are identifiers (`" + ManifestSchema.IDENTIFIER + "`).",
        object(properties.get("parameters"), "additionalProperties"));
    section(
        out,
        "A server",
        "`servers.<name>`: an MCP server the `mcp` steps call; give `command` or `url`.",
        object(properties.get("servers"), "additionalProperties"));
    Map<String, Object> step = object(properties.get("steps"), "items");
    section(out, "A step", "`steps[]`, run in order.", step);
    section(out, "A retry policy", "`steps[].retry`.", object(properties(step).get("retry"), null));
    out.append("\n## Capabilities\n\n")
        .append("`capabilities` must match `")
        .append(ManifestSchema.CAPABILITY)
        .append("`. A step needs the capability of its kind:\n\n")
        .append("| kind | capability |\n|---|---|\n");
    for (StepKind kind : StepKind.values()) {
      out.append("| `")
          .append(kind.wireName())
          .append("` | ")
          .append(
              kind == StepKind.MCP
                  ? "`mcp:<server>`, for the server in `with.server`"
                  : kind.requiredCapability(null).map(c -> "`" + c + "`").orElse("none"))
          .append(" |\n");
    }
    out.append("\nDurations (`timeout`, `retry.backoff`) match `")
        .append(ManifestSchema.DURATION)
        .append("`: `500ms`, `30s`, `5m`, `1h`.\n");
    out.append("\n## The JSON Schema\n\n```json\n")
        .append(Json.writePretty(ordered(root)))
        .append("\n```\n");
    return out.toString();
  }

  private static void section(
      StringBuilder out, String title, String intro, Map<String, Object> object) {
    out.append("\n## ").append(title).append("\n\n");
    if (!intro.isEmpty()) {
      out.append(intro).append("\n\n");
    }
    out.append("| field | type | required | description |\n|---|---|---|---|\n");
    List<?> required = object.get("required") instanceof List<?> list ? list : List.of();
    for (Map.Entry<String, Object> field : properties(object).entrySet()) {
      Map<String, Object> schema = object(field.getValue(), null);
      out.append("| `")
          .append(field.getKey())
          .append("` | ")
          .append(cell(type(schema)))
          .append(" | ")
          .append(required.contains(field.getKey()) ? "yes" : "no")
          .append(" | ")
          .append(cell(String.valueOf(schema.getOrDefault("description", ""))))
          .append(" |\n");
    }
  }

  /** A field's type in words: enum values, array items, map values, pattern. */
  static String type(Map<String, Object> schema) {
    if (schema.get("enum") instanceof List<?> values) {
      return "one of " + String.join(", ", values.stream().map(v -> "`" + v + "`").toList());
    }
    Object type = schema.get("type");
    if (type == null) {
      return "any";
    }
    String text = String.valueOf(type);
    if ("array".equals(type) && schema.get("items") instanceof Map<?, ?> items) {
      text += " of " + type(object(items, null));
    } else if ("object".equals(type) && schema.get("additionalProperties") instanceof Map<?, ?>) {
      text = "map of name to object";
    } else if ("object".equals(type) && schema.containsKey("properties")) {
      text = "object (" + String.join(", ", properties(schema).keySet()) + ")";
    }
    if (schema.get("pattern") instanceof String pattern) {
      text += " matching `" + pattern + "`";
    }
    if (schema.get("minimum") instanceof Number minimum) {
      text += ", at least " + minimum;
    }
    if (schema.get("minLength") instanceof Number minLength && minLength.intValue() > 0) {
      text += ", not empty";
    }
    if (schema.get("minItems") instanceof Number minItems && minItems.intValue() > 0) {
      text += ", at least " + minItems + " item" + (minItems.intValue() == 1 ? "" : "s");
    }
    if (Boolean.TRUE.equals(schema.get("uniqueItems"))) {
      text += ", each once";
    }
    return text;
  }

  /**
   * The schema with a stable order: field lists ({@code properties}) keep the order they were
   * declared in, every other object is sorted by key (its iteration order may change from one run
   * to the next).
   */
  public static Object ordered(Object value) {
    return ordered(value, false);
  }

  private static Object ordered(Object value, boolean declared) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy =
          declared ? new java.util.LinkedHashMap<>() : new java.util.TreeMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), ordered(v, "properties".equals(k))));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(v -> ordered(v, false)).toList();
    }
    return value;
  }

  private static Map<String, Object> properties(Map<String, Object> object) {
    return object(object.get("properties"), null);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Object value, String key) {
    Map<String, Object> map = value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    return key == null ? map : object(map.get(key), null);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
