package dev.cortex.workflows.manifest;

import dev.cortex.mcp.tool.SchemaCheck;
import dev.cortex.workflows.jq.JqSyntax;
import dev.cortex.workflows.jq.Template;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The checks a schema cannot express: unique step ids, jq that parses and reads only earlier steps
 * and declared parameters, capabilities and servers for each step's kind, and parameter
 * declarations that agree with themselves. Reads the tree defensively: a node of the wrong shape
 * has already been reported by the schema and is skipped here.
 */
final class SemanticChecks {
  private static final Pattern STEP_REFERENCE =
      Pattern.compile("\\.steps\\.([A-Za-z_][A-Za-z0-9_]*)");
  private static final Pattern PARAM_REFERENCE =
      Pattern.compile("\\.params\\.([A-Za-z_][A-Za-z0-9_]*)");

  private static final java.util.concurrent.ConcurrentHashMap<String, SchemaCheck> INPUT_CHECKS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final String file;
  private final YamlTree tree;
  private final List<ManifestProblem> problems = new ArrayList<>();

  private SemanticChecks(String file, YamlTree tree) {
    this.file = file;
    this.tree = tree;
  }

  static List<ManifestProblem> of(String file, YamlTree tree) {
    SemanticChecks checks = new SemanticChecks(file, tree);
    if (tree.root.isObject()) {
      checks.parameters(tree.root.path("parameters"));
      checks.servers(tree.root.path("servers"));
      checks.steps(tree.root.path("steps"));
    }
    return checks.problems;
  }

  private void report(String field, String message) {
    problems.add(new ManifestProblem(file, tree.line(field), field, message));
  }

  private void parameters(JsonNode parameters) {
    if (!parameters.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> entry : parameters.properties()) {
      parameter(FieldPath.member("parameters", entry.getKey()), entry.getValue());
    }
  }

  private void parameter(String path, JsonNode node) {
    Optional<ParameterType> type = ParameterType.fromWireName(node.path("type").asString(""));
    if (type.isEmpty()) {
      return;
    }
    boolean consistent = true;
    if (type.get() == ParameterType.ENUM && !node.has("values")) {
      report(FieldPath.member(path, "type"), "an enum parameter needs values");
      consistent = false;
    }
    if (type.get() != ParameterType.ENUM && node.has("values")) {
      report(FieldPath.member(path, "values"), "values apply to enum parameters only");
      consistent = false;
    }
    for (String bound : List.of("min", "max")) {
      if (node.has(bound) && !type.get().isBounded()) {
        report(
            FieldPath.member(path, bound),
            bound + " applies to integer, number and array parameters only");
        consistent = false;
      }
    }
    JsonNode min = node.path("min");
    JsonNode max = node.path("max");
    if (min.isNumber() && max.isNumber() && min.doubleValue() > max.doubleValue()) {
      report(
          FieldPath.member(path, "max"),
          "max " + max.asString() + " is less than min " + min.asString());
      consistent = false;
    }
    if (consistent && node.has("default")) {
      defaultValue(path, node);
    }
  }

  private void defaultValue(String path, JsonNode node) {
    ParameterSpec spec;
    try {
      spec = ManifestLoader.parameter(node);
    } catch (RuntimeException e) {
      return; // a shape problem the schema reports
    }
    Object value = ManifestLoader.plain(node.get("default"));
    spec.problem(value)
        .ifPresent(problem -> report(FieldPath.member(path, "default"), "default " + problem));
  }

  private void servers(JsonNode servers) {
    if (!servers.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> entry : servers.properties()) {
      JsonNode server = entry.getValue();
      if (server.isObject() && server.has("command") == server.has("url")) {
        report(
            FieldPath.member("servers", entry.getKey()),
            "a server needs exactly one of command (stdio) or url (HTTP)");
      }
    }
  }

  private void steps(JsonNode steps) {
    if (!steps.isArray()) {
      return;
    }
    Map<String, Integer> allIds = new HashMap<>();
    for (int i = 0; i < steps.size(); i++) {
      String id = steps.get(i).path("id").asString(null);
      if (id != null) {
        allIds.putIfAbsent(id, i);
      }
    }
    Set<String> earlier = new HashSet<>();
    for (int i = 0; i < steps.size(); i++) {
      JsonNode step = steps.get(i);
      String path = FieldPath.element("steps", i);
      String id = step.path("id").asString(null);
      if (id != null && !earlier.add(id)) {
        String first = FieldPath.member(FieldPath.element("steps", allIds.get(id)), "id");
        report(
            FieldPath.member(path, "id"),
            "duplicate step id '" + id + "' (first at line " + tree.line(first) + ")");
      }
      if (step.isObject()) {
        step(path, step, id, earlier, allIds.keySet());
      }
    }
  }

  private void step(
      String path, JsonNode step, String id, Set<String> earlier, Set<String> allIds) {
    Set<String> before = new HashSet<>(earlier);
    before.remove(id);
    for (String field : List.of("if", "for_each")) {
      if (step.path(field).isString()) {
        expression(FieldPath.member(path, field), step.get(field).asString(), id, before, allIds);
      }
    }
    templates(FieldPath.member(path, "with"), step.path("with"), id, before, allIds);
    if (step.has("concurrency") && !step.has("for_each")) {
      report(FieldPath.member(path, "concurrency"), "concurrency applies only with for_each");
    }
    Optional<StepKind> kind = StepKind.fromWireName(step.path("kind").asString(""));
    if (kind.isPresent()) {
      capability(path, step, kind.get());
      inputs(FieldPath.member(path, "with"), step.path("with"), kind.get());
      JsonNode expression = step.path("with").path("expression");
      if (kind.get() == StepKind.TRANSFORM
          && expression.isString()
          && Template.expressions(expression.asString()).isEmpty()) {
        expression(
            FieldPath.member(FieldPath.member(path, "with"), "expression"),
            expression.asString(),
            id,
            before,
            allIds);
      }
    }
  }

  /** Names in {@code with} that the kind does not take, and inputs it requires that are absent. */
  private void inputs(String path, JsonNode with, StepKind kind) {
    if (!with.isObject() && !with.isMissingNode()) {
      return;
    }
    Map<String, Object> schema = dev.cortex.workflows.activity.Activities.inputSchema(kind);
    Object properties = schema.get("properties");
    Set<String> accepted =
        properties instanceof Map<?, ?> map
            ? map.keySet().stream()
                .map(String::valueOf)
                .collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new))
            : Set.of();
    for (Map.Entry<String, JsonNode> entry : with.properties()) {
      if (!accepted.contains(entry.getKey())) {
        report(
            FieldPath.member(path, entry.getKey()),
            "kind "
                + kind.wireName()
                + " takes no input '"
                + entry.getKey()
                + "' (it takes: "
                + String.join(", ", accepted)
                + ")");
      } else if (!templated(entry.getValue())) {
        literal(path, kind, entry.getKey(), entry.getValue());
      }
    }
    if (schema.get("required") instanceof List<?> required) {
      for (Object name : required) {
        if (!with.has(String.valueOf(name))) {
          report(
              with.isMissingNode() ? path.substring(0, path.lastIndexOf('.')) : path,
              "kind " + kind.wireName() + " needs with." + name);
        }
      }
    }
  }

  /** Checks an input written without templates against its schema, as a run would. */
  private void literal(String path, StepKind kind, String name, JsonNode value) {
    SchemaCheck check =
        INPUT_CHECKS.computeIfAbsent(
            kind.wireName() + "." + name,
            key -> {
              Map<?, ?> properties =
                  (Map<?, ?>)
                      dev.cortex.workflows.activity.Activities.inputSchema(kind).get("properties");
              Map<String, Object> wrapper = new java.util.LinkedHashMap<>();
              wrapper.put("type", "object");
              wrapper.put("properties", Map.of(name, properties.get(name)));
              return new SchemaCheck(wrapper, name);
            });
    tools.jackson.databind.node.ObjectNode single =
        tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    single.set(name, value);
    for (String problem : check.problems(single)) {
      int colon = problem.indexOf(": ");
      String where = colon < 0 ? name : problem.substring(0, colon);
      String field = path;
      for (String segment : where.split("\\.")) {
        field =
            segment.matches("[0-9]+")
                ? FieldPath.element(field, Integer.parseInt(segment))
                : FieldPath.member(field, segment);
      }
      report(field, colon < 0 ? problem : problem.substring(colon + 2));
    }
  }

  private static boolean templated(JsonNode value) {
    if (value.isString()) {
      return value.asString().contains("${{");
    }
    for (JsonNode child : value) { // array elements, or object values
      if (templated(child)) {
        return true;
      }
    }
    return false;
  }

  private void templates(
      String path, JsonNode value, String id, Set<String> before, Set<String> allIds) {
    if (value.isString()) {
      for (String expression : Template.expressions(value.asString())) {
        expression(path, expression, id, before, allIds);
      }
    } else if (value.isObject()) {
      for (Map.Entry<String, JsonNode> entry : value.properties()) {
        templates(FieldPath.member(path, entry.getKey()), entry.getValue(), id, before, allIds);
      }
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        templates(FieldPath.element(path, i), value.get(i), id, before, allIds);
      }
    }
  }

  private void expression(
      String path, String expression, String id, Set<String> before, Set<String> allIds) {
    Optional<String> error = JqSyntax.error(expression);
    if (error.isPresent()) {
      report(path, error.get());
      return;
    }
    Matcher steps = STEP_REFERENCE.matcher(expression);
    while (steps.find()) {
      String name = steps.group(1);
      if (name.equals(id)) {
        report(path, "refers to the output of its own step '" + name + "'");
      } else if (!before.contains(name)) {
        report(
            path,
            allIds.contains(name)
                ? "refers to step '" + name + "', which runs after this step"
                : "refers to unknown step '" + name + "'");
      }
    }
    Matcher params = PARAM_REFERENCE.matcher(expression);
    JsonNode declared = tree.root.path("parameters");
    while (params.find()) {
      if (!declared.has(params.group(1))) {
        report(path, "refers to undeclared parameter '" + params.group(1) + "'");
      }
    }
  }

  private void capability(String path, JsonNode step, StepKind kind) {
    String server = null;
    if (kind == StepKind.MCP) {
      JsonNode named = step.path("with").path("server");
      if (!named.isString()) {
        report(
            FieldPath.member(path, "with"),
            "an mcp step needs with.server naming one of the declared servers");
        return;
      }
      server = named.asString();
      if (!tree.root.path("servers").has(server)) {
        report(
            FieldPath.member(FieldPath.member(path, "with"), "server"),
            "server '" + server + "' is not declared under servers");
      }
    }
    Optional<String> needed = kind.requiredCapability(server);
    JsonNode declared = tree.root.path("capabilities");
    boolean missing =
        declared.isMissingNode() || declared.isArray() && !contains(declared, needed.orElse(""));
    if (needed.isPresent() && missing) {
      report(
          FieldPath.member(path, "kind"),
          "kind '"
              + kind.wireName()
              + "' needs capability '"
              + needed.get()
              + "'; declare it under capabilities");
    }
  }

  private static boolean contains(JsonNode array, String text) {
    for (JsonNode item : array) {
      if (item.isString() && item.asString().equals(text)) {
        return true;
      }
    }
    return false;
  }
}
