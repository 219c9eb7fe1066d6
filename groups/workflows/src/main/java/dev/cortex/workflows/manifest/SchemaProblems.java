package dev.cortex.workflows.manifest;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.path.NodePath;
import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** Validates a manifest tree against {@link ManifestSchema}, each error placed on its line. */
final class SchemaProblems {
  private static final class Holder {
    static final com.networknt.schema.Schema SCHEMA =
        SchemaRegistry.withDefaultDialect(Dialects.getDraft202012())
            .getSchema(Json.mapper().<JsonNode>valueToTree(ManifestSchema.schema()));
  }

  private static final Pattern TYPE = Pattern.compile("(\\w+) found, (\\w+) expected");

  private static final Map<String, String> PATTERNS =
      Map.of(
          ManifestSchema.DURATION,
          "must be a duration such as 500ms, 30s, 5m or 1h",
          ManifestSchema.CAPABILITY,
          "must be one of shell, network, filesystem.read, filesystem.write, database,"
              + " mcp:<server>",
          ManifestSchema.IDENTIFIER,
          "must start with a letter or _ and hold only letters, digits and _",
          ManifestSchema.URL,
          "must be an http:// or https:// URL");

  private SchemaProblems() {}

  static List<ManifestProblem> of(String file, YamlTree tree) {
    List<ManifestProblem> problems = new ArrayList<>();
    for (Error error : Holder.SCHEMA.validate(tree.root)) {
      problems.add(problem(file, tree, error));
    }
    return problems;
  }

  private static ManifestProblem problem(String file, YamlTree tree, Error error) {
    String path = path(error.getInstanceLocation());
    String keyword = error.getKeyword();
    if ("additionalProperties".equals(keyword) || "propertyNames".equals(keyword)) {
      String field = FieldPath.member(path, error.getProperty());
      String message =
          "additionalProperties".equals(keyword)
              ? "unknown field '" + error.getProperty() + "'"
              : "name '" + error.getProperty() + "' must be letters, digits and _";
      return new ManifestProblem(file, tree.line(field), field, message);
    }
    if ("required".equals(keyword)) {
      return new ManifestProblem(
          file,
          tree.line(path),
          FieldPath.member(path, error.getProperty()),
          "missing required field '" + error.getProperty() + "'");
    }
    return new ManifestProblem(file, tree.line(path), path, message(error));
  }

  private static String message(Error error) {
    JsonNode value = error.getInstanceNode();
    String got = value == null ? "" : ", got " + value;
    switch (error.getKeyword()) {
      case "type":
        Matcher type = TYPE.matcher(error.getMessage());
        if (type.find()) {
          String expected = type.group(2);
          return "expected " + (expected.matches("[aeiou].*") ? "an " : "a ") + expected + got;
        }
        break;
      case "enum":
        List<String> choices = new ArrayList<>();
        error.getSchemaNode().forEach(choice -> choices.add(choice.asString()));
        return "must be one of " + String.join(", ", choices) + got;
      case "pattern":
        String pattern = error.getSchemaNode().asString();
        String expected = PATTERNS.getOrDefault(pattern, "must match " + pattern);
        return expected + got;
      default:
        break;
    }
    return error.getMessage().replaceFirst("^\\S*: ", "");
  }

  private static String path(NodePath location) {
    String path = "";
    for (int i = 0; i < location.getNameCount(); i++) {
      Object element = location.getElement(i);
      path =
          element instanceof Integer index
              ? FieldPath.element(path, index)
              : FieldPath.member(path, String.valueOf(element));
    }
    return path;
  }
}
