package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schemas every tool of every group declares, as {@code cortex tools list --json} gives them:
 * output schemas with no open object anywhere, and every parameter described.
 */
class ToolSchemasTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir static Path home;

  static JsonNode tools;

  @BeforeAll
  static void listEveryGroup() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Main.run(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            Map.of("CORTEX_HOME", home.toString()),
            "tools",
            "list",
            "--json",
            "--bundles",
            "core,ext,evidence,workflows");
    assertThat(code).isZero();
    tools = JSON.readTree(out.toString(StandardCharsets.UTF_8)).path("tools");
    assertThat(tools.size()).isGreaterThanOrEqualTo(22);
  }

  @Test
  void outputSchemas_closeEveryObject_orTypeItsValuesAsAMap() {
    List<String> open = new ArrayList<>();
    for (JsonNode tool : tools) {
      openObjects(tool.path("output_schema"), tool.path("name").asString() + ".output", open);
    }

    assertThat(open).as("objects of output schemas that admit undeclared fields").isEmpty();
  }

  @Test
  void inputSchemas_describeEveryParameter_withWhatItIsAndItsFormat() {
    List<String> vague = new ArrayList<>();
    for (JsonNode tool : tools) {
      undescribed(tool.path("input_schema"), tool.path("name").asString(), vague);
    }

    assertThat(vague).as("parameters without a useful description").isEmpty();
  }

  /**
   * The portability rules of the MCP Inspector's strict mode: no {@code type} array (a nullable
   * value is {@code anyOf} its type and null) and no schema that constrains nothing (any JSON is
   * {@code anyOf} the six types).
   */
  @Test
  void schemas_areTypedForClientsOfOneTypePerSchema() {
    List<String> unportable = new ArrayList<>();
    for (JsonNode tool : tools) {
      String name = tool.path("name").asString();
      unportable(tool.path("input_schema"), name + ".input", null, unportable);
      unportable(tool.path("output_schema"), name + ".output", null, unportable);
    }

    assertThat(unportable).as("schemas the Inspector's strict mode warns about").isEmpty();
  }

  @Test
  void inputSchemas_carryTheDefaultsAndFormatsTheirParametersHave() {
    JsonNode runsList = tool("runs_list").path("input_schema").path("properties");
    assertThat(runsList.path("limit").path("default").asInt()).isEqualTo(20);
    assertThat(runsList.path("since").path("format").asString()).isEqualTo("date-time");
    assertThat(runsList.path("since").path("examples").get(0).asString()).endsWith("Z");
    JsonNode bash = tool("remote_bash").path("input_schema").path("properties");
    assertThat(bash.path("timeout").path("default").asInt()).isEqualTo(120);
    assertThat(
            tool("current_time")
                .path("input_schema")
                .path("properties")
                .path("timezone")
                .path("examples")
                .size())
        .isEqualTo(3);
    for (JsonNode tool : tools) {
      tool.path("input_schema")
          .path("properties")
          .properties()
          .forEach(
              p ->
                  assertThat(p.getValue().path("description").asString())
                      .as(tool.path("name").asString() + "." + p.getKey())
                      .doesNotContainPattern("\\(default (true|false|\\d+)\\)"));
    }
  }

  static JsonNode tool(String name) {
    for (JsonNode tool : tools) {
      if (tool.path("name").asString().equals(name)) {
        return tool;
      }
    }
    throw new AssertionError("no tool " + name);
  }

  private static final Set<String> CONSTRAINING =
      Set.of(
          "type",
          "enum",
          "const",
          "multipleOf",
          "maximum",
          "exclusiveMaximum",
          "minimum",
          "exclusiveMinimum",
          "maxLength",
          "minLength",
          "pattern",
          "format",
          "maxItems",
          "minItems",
          "uniqueItems",
          "maxProperties",
          "minProperties",
          "required",
          "allOf",
          "anyOf",
          "oneOf",
          "not",
          "items",
          "prefixItems",
          "contains",
          "properties",
          "patternProperties",
          "additionalProperties",
          "propertyNames",
          "$ref");

  static void unportable(JsonNode schema, String where, String keyword, List<String> found) {
    if (schema.isBoolean()) {
      if (!"additionalProperties".equals(keyword)) {
        found.add(where + ": a bare boolean schema");
      }
      return;
    }
    if (!schema.isObject()) {
      return;
    }
    if (schema.path("type").isArray()) {
      found.add(where + ": type " + schema.path("type"));
    }
    boolean constrains = schema.propertyNames().stream().anyMatch(CONSTRAINING::contains);
    if (!constrains && !"not".equals(keyword)) {
      found.add(where + ": constrains nothing");
    }
    for (String map : List.of("properties", "$defs", "patternProperties")) {
      schema
          .path(map)
          .properties()
          .forEach(p -> unportable(p.getValue(), where + "." + p.getKey(), map, found));
    }
    for (String list : List.of("anyOf", "oneOf", "allOf")) {
      int i = 0;
      for (JsonNode branch : schema.path(list)) {
        unportable(branch, where + "|" + i++, list, found);
      }
    }
    for (String single : List.of("items", "additionalProperties", "not", "propertyNames")) {
      if (schema.has(single)) {
        unportable(schema.get(single), where + "." + single, single, found);
      }
    }
  }

  @Test
  void descriptions_sayWhenToUseATool_namingItsNeighbour() {
    Map<String, Set<String>> neighbours =
        Map.of(
            "check", Set.of("show", "run"),
            "show", Set.of("check"),
            "status", Set.of("cortex_health", "runs_list"),
            "cortex_health", Set.of("status"),
            "runs_list", Set.of("runs_show"),
            "runs_show", Set.of("runs_list"),
            "cortex_review", Set.of("cortex_get_context"),
            "cortex_get_context", Set.of("cortex_review"));
    for (JsonNode tool : tools) {
      String name = tool.path("name").asString();
      for (String neighbour : neighbours.getOrDefault(name, Set.of())) {
        assertThat(tool.path("description").asString()).as(name).contains(neighbour);
      }
    }
  }

  /**
   * Objects (at any depth, in any branch, in the shared definitions) that are neither closed nor
   * typed maps.
   */
  static void openObjects(JsonNode schema, String where, List<String> open) {
    if (!schema.isObject() || isAnyJson(schema)) {
      return;
    }
    JsonNode extra = schema.get("additionalProperties");
    boolean branches = schema.has("anyOf") || schema.has("oneOf");
    if (isObject(schema) && !branches) {
      boolean closed = extra != null && extra.isBoolean() && !extra.asBoolean();
      boolean typedMap = extra != null && extra.isObject() && schema.has("propertyNames");
      if (!closed && !typedMap) {
        open.add(where + (extra == null ? " (additionalProperties unset)" : " (" + extra + ")"));
      }
    }
    schema
        .path("properties")
        .properties()
        .forEach(p -> openObjects(p.getValue(), where + "." + p.getKey(), open));
    if (extra != null && extra.isObject()) {
      openObjects(extra, where + ".*", open);
    }
    openObjects(schema.path("items"), where + "[]", open);
    schema
        .path("$defs")
        .properties()
        .forEach(d -> openObjects(d.getValue(), where + "#" + d.getKey(), open));
    for (String keyword : List.of("anyOf", "oneOf")) {
      int i = 0;
      for (JsonNode branch : schema.path(keyword)) {
        openObjects(branch, where + "|" + i++, open);
      }
    }
  }

  /** Any JSON value, spelt as a choice of the six types: what a caller's own data holds. */
  private static boolean isAnyJson(JsonNode schema) {
    Set<String> types = new java.util.HashSet<>();
    for (JsonNode branch : schema.path("anyOf")) {
      if (branch.size() != 1 || !branch.path("type").isString()) {
        return false;
      }
      types.add(branch.path("type").asString());
    }
    return types.equals(Set.of("object", "array", "string", "number", "boolean", "null"));
  }

  private static boolean isObject(JsonNode schema) {
    JsonNode type = schema.path("type");
    if (type.isString()) {
      return type.asString().equals("object");
    }
    for (JsonNode each : type) {
      if (each.asString().equals("object")) {
        return true;
      }
    }
    return schema.has("properties");
  }

  private static final Set<String> VAGUE =
      Set.of(
          "The claim.",
          "The assumption.",
          "Kind of source.",
          "What to review.",
          "Collections to return.",
          "The new status.",
          "How it bears on the claim.");

  /** Parameters whose description is missing, vague or too short to say a format. */
  static void undescribed(JsonNode schema, String where, List<String> vague) {
    schema
        .path("properties")
        .properties()
        .forEach(
            p -> {
              String name = where + "." + p.getKey();
              String text = p.getValue().path("description").asString("");
              if (text.length() < 20 || VAGUE.contains(text)) {
                vague.add(name + ": '" + text + "'");
              }
              undescribed(p.getValue(), name, vague);
              undescribed(p.getValue().path("items"), name + "[]", vague);
            });
  }
}
