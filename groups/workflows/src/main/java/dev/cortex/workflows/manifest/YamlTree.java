package dev.cortex.workflows.manifest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A YAML document read into a JSON tree, with the line of every value, keyed by field path ({@code
 * steps[2].with.url}; the root is the empty path). A member's line is its key's line.
 */
final class YamlTree {
  private static final class Holder {
    static final YAMLMapper YAML = YAMLMapper.builder().build();
  }

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  final JsonNode root;
  private final Map<String, Integer> lines;
  final List<ManifestProblem> duplicates;

  private YamlTree(JsonNode root, Map<String, Integer> lines, List<ManifestProblem> duplicates) {
    this.root = root;
    this.lines = lines;
    this.duplicates = duplicates;
  }

  /**
   * Reads {@code yaml}; a syntax error becomes a {@link ManifestException} with the parser's line.
   */
  static YamlTree read(String file, String yaml) throws ManifestException {
    Reader reader = new Reader(file);
    try (JsonParser parser = Holder.YAML.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      JsonNode root = first == null ? NODES.nullNode() : reader.value(parser, "");
      return new YamlTree(root, reader.lines, reader.duplicates);
    } catch (JacksonException e) {
      TokenStreamLocation location = e.getLocation();
      int line = location == null ? 1 : Math.max(1, location.getLineNr());
      String message =
          e.getOriginalMessage()
              .lines()
              .filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
              .collect(java.util.stream.Collectors.joining(": "));
      throw new ManifestException(
          List.of(new ManifestProblem(file, line, "", "YAML syntax error: " + message)));
    }
  }

  /** The line of {@code path}, or of its nearest recorded parent; 1 when none is known. */
  int line(String path) {
    String at = path;
    while (true) {
      Integer line = lines.get(at);
      if (line != null) {
        return line;
      }
      if (at.isEmpty()) {
        return 1;
      }
      at = FieldPath.parent(at);
    }
  }

  private static final class Reader {
    private final String file;
    final Map<String, Integer> lines = new HashMap<>();
    final List<ManifestProblem> duplicates = new ArrayList<>();

    Reader(String file) {
      this.file = file;
    }

    /** Reads the value at the parser's current token, which sits at {@code path}. */
    JsonNode value(JsonParser parser, String path) {
      int line = parser.currentTokenLocation().getLineNr();
      lines.putIfAbsent(path, line);
      return switch (parser.currentToken()) {
        case START_OBJECT -> object(parser, path);
        case START_ARRAY -> array(parser, path);
        case VALUE_STRING -> NODES.stringNode(parser.getString());
        case VALUE_NUMBER_INT -> integer(parser.getNumberValue());
        case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDoubleValue());
        case VALUE_TRUE -> NODES.booleanNode(true);
        case VALUE_FALSE -> NODES.booleanNode(false);
        default -> NODES.nullNode();
      };
    }

    private static JsonNode integer(Number number) {
      if (number instanceof Integer i) {
        return NODES.numberNode(i);
      }
      if (number instanceof Long l) {
        return NODES.numberNode(l);
      }
      return NODES.numberNode((java.math.BigInteger) number);
    }

    private ObjectNode object(JsonParser parser, String path) {
      ObjectNode object = NODES.objectNode();
      while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = parser.currentName();
        String child = FieldPath.member(path, name);
        int keyLine = parser.currentTokenLocation().getLineNr();
        parser.nextToken();
        if (object.has(name)) {
          duplicates.add(
              new ManifestProblem(
                  file, keyLine, child, "duplicate key (first at line " + lines.get(child) + ")"));
          value(parser, child + "#dup");
          continue;
        }
        lines.put(child, keyLine);
        object.set(name, value(parser, child));
      }
      return object;
    }

    private ArrayNode array(JsonParser parser, String path) {
      ArrayNode array = NODES.arrayNode();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        array.add(value(parser, FieldPath.element(path, array.size())));
      }
      return array;
    }
  }
}
