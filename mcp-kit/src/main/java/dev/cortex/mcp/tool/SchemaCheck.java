package dev.cortex.mcp.tool;

import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Checks a JSON value against one JSON Schema (2020-12). The schema is compiled on first use, so a
 * server that never calls a tool never pays for its schema. Problems name the offending field; a
 * problem of the whole value is labelled with the root label ({@code arguments} for tools).
 */
public final class SchemaCheck {
  private static final class Registry {
    static final SchemaRegistry INSTANCE =
        SchemaRegistry.withDefaultDialect(Dialects.getDraft202012());
  }

  private final Map<String, Object> schema;
  private final String root;
  private volatile com.networknt.schema.Schema compiled;

  SchemaCheck(Map<String, Object> schema) {
    this(schema, "arguments");
  }

  public SchemaCheck(Map<String, Object> schema, String root) {
    this.schema = schema;
    this.root = root;
  }

  /** Human-readable problems of {@code value}; empty when it conforms. */
  public List<String> problems(JsonNode value) {
    List<Error> errors = compiled().validate(value);
    List<String> problems = new ArrayList<>(errors.size());
    for (Error error : errors) {
      problems.add(describe(error));
    }
    return problems;
  }

  private String describe(Error error) {
    String pointer = error.getInstanceLocation().toString();
    String where =
        pointer.isEmpty() || pointer.equals("$")
            ? root
            : pointer.replaceFirst("^[/$.]+", "").replace('/', '.');
    if ("additionalProperties".equals(error.getKeyword())) {
      return where + ": unknown field '" + error.getProperty() + "'" + allowedFields(error, where);
    }
    return where + ": " + error.getMessage().replaceFirst("^\\S*: ", "");
  }

  /** Names the fields the tool accepts, for an unknown field at the top level. */
  private String allowedFields(Error error, String where) {
    if (!root.equals(where) || !(schema.get("properties") instanceof Map<?, ?> properties)) {
      return "";
    }
    return properties.isEmpty()
        ? " (this tool takes no arguments)"
        : " (accepted: "
            + String.join(", ", properties.keySet().stream().map(String::valueOf).toList())
            + ")";
  }

  private com.networknt.schema.Schema compiled() {
    com.networknt.schema.Schema local = compiled;
    if (local == null) {
      local = Registry.INSTANCE.getSchema(Json.mapper().<JsonNode>valueToTree(schema));
      compiled = local;
    }
    return local;
  }
}
