package dev.cortex.workflows.manifest;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schema (2020-12) of a workflow manifest. Objects are closed: a field the schema does not
 * name is an error. The loader validates against it and the published {@code manifest_schema}
 * reference is generated from it, so both share one definition.
 */
public final class ManifestSchema {
  /** Names of parameters and steps: usable as {@code .params.NAME} and {@code .steps.NAME}. */
  public static final String IDENTIFIER = "^[A-Za-z_][A-Za-z0-9_]*$";

  /** Durations such as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
  static final String DURATION = "^[0-9]+(ms|s|m|h)$";

  static final String URL = "^https?://";

  static final String CAPABILITY =
      "^(shell|network|filesystem\\.read|filesystem\\.write|database|mcp:[A-Za-z0-9_.-]+)$";

  private static final Map<String, Object> SCHEMA = build();

  private ManifestSchema() {}

  /** The schema as nested maps and lists, ready to serialise. */
  public static Map<String, Object> schema() {
    return SCHEMA;
  }

  private static Map<String, Object> build() {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    root.put("title", "Cortex workflow manifest");
    root.putAll(
        closed(
            List.of("name", "version", "steps"),
            "name",
            described(string(1), "The workflow's name."),
            "version",
            described(string(1), "The workflow's version, e.g. 1.0.0."),
            "description",
            described(string(0), "What the workflow does."),
            "parameters",
            map(parameter(), "Parameters by name."),
            "capabilities",
            described(
                Map.of(
                    "type",
                    "array",
                    "uniqueItems",
                    true,
                    "items",
                    Map.of("type", "string", "pattern", CAPABILITY)),
                "What the steps may do: shell, network, filesystem.read, filesystem.write,"
                    + " database, mcp:<server>."),
            "servers",
            map(server(), "MCP servers the mcp steps call, by name."),
            "steps",
            described(
                Map.of("type", "array", "minItems", 1, "items", step()),
                "The steps, run in order.")));
    return root;
  }

  private static Map<String, Object> parameter() {
    return closed(
        List.of("type"),
        "type",
        described(
            enumOf(ParameterType.values()),
            "The parameter's type; values are checked as they are, never coerced."),
        "required",
        described(
            Map.of("type", "boolean"),
            "Whether a value must be given (default false; a default makes it optional)."),
        "default",
        described(Map.of(), "A value of the parameter's type."),
        "min",
        described(Map.of("type", "number"), "Least value (integer, number) or size (array)."),
        "max",
        described(Map.of("type", "number"), "Greatest value (integer, number) or size (array)."),
        "values",
        described(
            Map.of("type", "array", "minItems", 1, "items", Map.of("type", "string")),
            "The choices of an enum parameter."),
        "description",
        described(string(0), "What the parameter is for, shown by show and check."));
  }

  private static Map<String, Object> server() {
    return closed(
        List.of(),
        "command",
        described(
            Map.of("type", "array", "minItems", 1, "items", Map.of("type", "string")),
            "argv of a server speaking MCP on stdio."),
        "url",
        described(
            Map.of("type", "string", "pattern", URL), "URL of a streamable-HTTP MCP server."));
  }

  private static Map<String, Object> step() {
    return closed(
        List.of("id", "kind"),
        "id",
        described(
            Map.of("type", "string", "pattern", IDENTIFIER),
            "Unique in the manifest; later steps read the output as .steps.<id>."),
        "kind",
        described(enumOf(StepKind.values()), "The activity the step runs."),
        "with",
        described(
            Map.of("type", "object"),
            "Inputs; a string may hold jq expressions written ${{ expr }} over {params, steps}."),
        "if",
        described(string(1), "jq expression; the step runs when it is truthy."),
        "for_each",
        described(string(1), "jq expression giving an array; the step runs once per element."),
        "concurrency",
        described(Map.of("type", "integer", "minimum", 1), "Parallel for_each runs (default 1)."),
        "timeout",
        described(
            Map.of("type", "string", "pattern", DURATION),
            "An attempt that takes longer is stopped and fails with kind timeout."),
        "retry",
        described(
            closed(
                List.of("attempts"),
                "attempts",
                described(
                    Map.of("type", "integer", "minimum", 1),
                    "Attempts in all, the first included."),
                "backoff",
                described(
                    Map.of("type", "string", "pattern", DURATION),
                    "The pause before each new attempt (default none).")),
            "How often to try the step before it fails."));
  }

  private static Map<String, Object> closed(List<String> required, Object... properties) {
    Map<String, Object> props = new LinkedHashMap<>();
    for (int i = 0; i < properties.length; i += 2) {
      props.put((String) properties[i], properties[i + 1]);
    }
    Map<String, Object> object = new LinkedHashMap<>();
    object.put("type", "object");
    object.put("properties", props);
    if (!required.isEmpty()) {
      object.put("required", required);
    }
    object.put("additionalProperties", false);
    return object;
  }

  private static Map<String, Object> map(Map<String, Object> value, String description) {
    return described(
        Map.of(
            "type",
            "object",
            "propertyNames",
            Map.of("pattern", IDENTIFIER),
            "additionalProperties",
            value),
        description);
  }

  private static Map<String, Object> string(int minLength) {
    return minLength == 0
        ? Map.of("type", "string")
        : Map.of("type", "string", "minLength", minLength);
  }

  private static Map<String, Object> enumOf(Enum<?>[] constants) {
    return Map.of(
        "enum",
        Arrays.stream(constants).map(c -> c.name().toLowerCase(java.util.Locale.ROOT)).toList());
  }

  private static Map<String, Object> described(Map<String, Object> schema, String description) {
    Map<String, Object> copy = new LinkedHashMap<>(schema);
    copy.put("description", description);
    return copy;
  }
}
