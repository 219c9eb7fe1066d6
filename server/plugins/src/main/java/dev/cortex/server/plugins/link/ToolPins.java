package dev.cortex.server.plugins.link;

import dev.cortex.base.Hashes;
import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The tools of one plugin server as a person confirmed them: each tool's name with a digest of what
 * the agent is told of it (its description, title and input schema). A server that later offers a
 * tool not among them, a tool twice, or a tool whose description, title or schema differs, has
 * changed what it adds, and its plugin is held back until confirmed again. A tool it no longer
 * offers changes nothing.
 */
public final class ToolPins {
  private ToolPins() {}

  /** A tool as listed: its name, description and title (null: none) and its input schema. */
  public record Tool(String name, String description, String title, JsonNode inputSchema) {
    public Tool(String name, String description) {
      this(name, description, null, null);
    }
  }

  /** The pins of {@code tools}: name to digest, by name. */
  public static Map<String, String> of(List<Tool> tools) {
    Map<String, String> pins = new TreeMap<>();
    for (Tool tool : tools) {
      pins.put(tool.name(), digest(tool));
    }
    return pins;
  }

  /** The tools of a {@code tools/list} result's {@code tools} array, as listed (twice if twice). */
  public static List<Tool> tools(JsonNode array) {
    List<Tool> tools = new ArrayList<>();
    for (JsonNode tool : array) {
      tools.add(
          new Tool(
              tool.path("name").asString(""),
              text(tool.get("description")),
              text(tool.get("title")),
              tool.get("inputSchema")));
    }
    return tools;
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? null : node.asString();
  }

  /**
   * What in {@code listed} was not confirmed (the first such tool, said in words without its text),
   * or empty when every tool is as pinned.
   */
  public static Optional<String> change(Map<String, String> pins, List<Tool> listed) {
    Set<String> seen = new HashSet<>();
    for (Tool tool : listed) {
      if (!seen.add(tool.name())) {
        return Optional.of("it lists the tool " + printable(tool) + " twice");
      }
      String pinned = pins.get(tool.name());
      if (pinned == null) {
        return Optional.of("it offers a tool that was not confirmed (" + printable(tool) + ")");
      }
      if (!pinned.equals(digest(tool))) {
        return Optional.of("the description of its tool " + printable(tool) + " changed");
      }
    }
    return Optional.empty();
  }

  /** A tool's name as it may be shown: plain, else {@code unnamed}. */
  public static String printable(Tool tool) {
    String name = tool.name();
    return name.length() <= 64 && name.matches("[A-Za-z0-9_.\\-/]+") ? name : "unnamed";
  }

  private static String digest(Tool tool) {
    String schema = tool.inputSchema() == null ? "" : Json.write(canonical(tool.inputSchema()));
    return Hashes.sha256Prefix(
        (tool.description() == null ? "" : tool.description())
            + "\u0000"
            + (tool.title() == null ? "" : tool.title())
            + "\u0000"
            + schema,
        16);
  }

  /** {@code node} with every object's fields in name order, so that order never counts. */
  private static JsonNode canonical(JsonNode node) {
    if (node.isObject()) {
      Map<String, JsonNode> fields = new TreeMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        fields.put(field.getKey(), field.getValue());
      }
      ObjectNode sorted = Json.mapper().createObjectNode();
      fields.forEach((k, v) -> sorted.set(k, canonical(v)));
      return sorted;
    }
    if (node.isArray()) {
      var array = Json.mapper().createArrayNode();
      node.forEach(item -> array.add(canonical(item)));
      return array;
    }
    return node;
  }
}
