package dev.cortex.workflows.manifest;

import dev.cortex.base.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Reads a workflow manifest from YAML: the syntax, then the {@link ManifestSchema}, then the {@link
 * SemanticChecks}. Every problem is reported at once, in line order, in a {@link
 * ManifestException}; a manifest without problems becomes a {@link Manifest}.
 */
public final class ManifestLoader {
  private ManifestLoader() {}

  /** Loads the manifest at {@code file}; problems name the file as given. */
  static Manifest load(Path file) throws IOException, ManifestException {
    return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Parses {@code yaml}; {@code fileName} only labels the problems. */
  public static Manifest parse(String fileName, String yaml) throws ManifestException {
    YamlTree tree = YamlTree.read(fileName, yaml);
    if (!tree.root.isObject()) {
      throw new ManifestException(
          List.of(
              new ManifestProblem(
                  fileName, 1, "", "a manifest must be a YAML mapping with name, version, steps")));
    }
    List<ManifestProblem> problems = new ArrayList<>(tree.duplicates);
    problems.addAll(SchemaProblems.of(fileName, tree));
    problems.addAll(SemanticChecks.of(fileName, tree));
    if (!problems.isEmpty()) {
      throw new ManifestException(problems);
    }
    return manifest(tree.root);
  }

  private static Manifest manifest(JsonNode root) {
    Map<String, ParameterSpec> parameters = new LinkedHashMap<>();
    root.path("parameters")
        .properties()
        .forEach(e -> parameters.put(e.getKey(), parameter(e.getValue())));
    Map<String, ServerSpec> servers = new LinkedHashMap<>();
    root.path("servers").properties().forEach(e -> servers.put(e.getKey(), server(e.getValue())));
    List<String> capabilities = new ArrayList<>();
    root.path("capabilities").forEach(c -> capabilities.add(c.asString()));
    List<Step> steps = new ArrayList<>();
    root.path("steps").forEach(s -> steps.add(step(s)));
    return new Manifest(
        root.path("name").asString(),
        root.path("version").asString(),
        root.path("description").asString(""),
        parameters,
        capabilities,
        servers,
        steps);
  }

  static ParameterSpec parameter(JsonNode node) {
    List<String> values = new ArrayList<>();
    node.path("values").forEach(v -> values.add(v.asString()));
    return new ParameterSpec(
        ParameterType.fromWireName(node.path("type").asString("")).orElseThrow(),
        node.path("required").asBoolean(false),
        node.has("default") ? plain(node.get("default")) : null,
        node.path("min").isNumber() ? node.get("min").doubleValue() : null,
        node.path("max").isNumber() ? node.get("max").doubleValue() : null,
        values,
        node.path("description").asString(""));
  }

  private static ServerSpec server(JsonNode node) {
    if (node.has("url")) {
      return new ServerSpec(null, node.get("url").asString());
    }
    List<String> command = new ArrayList<>();
    node.path("command").forEach(c -> command.add(c.asString()));
    return new ServerSpec(command, null);
  }

  @SuppressWarnings("unchecked")
  private static Step step(JsonNode node) {
    JsonNode retry = node.path("retry");
    return new Step(
        node.get("id").asString(),
        StepKind.fromWireName(node.get("kind").asString()).orElseThrow(),
        node.has("with") ? (Map<String, Object>) plain(node.get("with")) : Map.of(),
        node.has("if") ? node.get("if").asString() : null,
        node.has("for_each") ? node.get("for_each").asString() : null,
        node.path("concurrency").asInt(1),
        node.has("timeout") ? duration(node.get("timeout").asString()) : null,
        retry.isObject()
            ? new Retry(
                retry.get("attempts").asInt(),
                retry.has("backoff") ? duration(retry.get("backoff").asString()) : Duration.ZERO)
            : Retry.NONE);
  }

  /** A tree as plain Java values: maps, lists, strings, numbers, booleans and null. */
  static Object plain(JsonNode node) {
    return Json.mapper().treeToValue(node, Object.class);
  }

  /**
   * Parses a duration in the manifest's syntax ({@code 500ms}, {@code 30s}, {@code 5m}, {@code
   * 1h}).
   */
  static Duration duration(String text) {
    if (!text.matches(ManifestSchema.DURATION)) {
      throw new IllegalArgumentException("not a duration: " + text);
    }
    String unit = text.replaceAll("[0-9]", "");
    long amount = Long.parseLong(text.substring(0, text.length() - unit.length()));
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }
}
