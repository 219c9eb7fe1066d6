package dev.cortex.server.plugins.link;

import dev.cortex.base.Hashes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * The tools of one plugin server as a person confirmed them: each tool's name with a digest of its
 * description. A server that later offers a tool not among them, or one whose description differs,
 * has changed what it adds, and its plugin is held back until confirmed again. A tool it no longer
 * offers changes nothing.
 */
public final class ToolPins {
  private ToolPins() {}

  /** A tool as listed: its name and description (null: none). */
  public record Tool(String name, String description) {}

  /** The pins of {@code tools}: name to digest, by name. */
  public static Map<String, String> of(List<Tool> tools) {
    Map<String, String> pins = new TreeMap<>();
    for (Tool tool : tools) {
      pins.put(tool.name(), digest(tool.description()));
    }
    return pins;
  }

  /** The tools of a {@code tools/list} result's {@code tools} array. */
  public static List<Tool> tools(JsonNode array) {
    Map<String, Tool> tools = new LinkedHashMap<>();
    for (JsonNode tool : array) {
      String name = tool.path("name").asString("");
      JsonNode description = tool.get("description");
      tools.put(
          name,
          new Tool(
              name, description == null || description.isNull() ? null : description.asString()));
    }
    return List.copyOf(tools.values());
  }

  /**
   * What in {@code listed} was not confirmed (the first such tool, said in words without its text),
   * or empty when every tool is as pinned.
   */
  public static Optional<String> change(Map<String, String> pins, List<Tool> listed) {
    for (Tool tool : listed) {
      String pinned = pins.get(tool.name());
      if (pinned == null) {
        return Optional.of("it offers a tool that was not confirmed (" + printable(tool) + ")");
      }
      if (!pinned.equals(digest(tool.description()))) {
        return Optional.of("the description of its tool " + printable(tool) + " changed");
      }
    }
    return Optional.empty();
  }

  private static String printable(Tool tool) {
    String name = tool.name();
    return name.length() <= 64 && name.matches("[A-Za-z0-9_.\\-/]+") ? name : "unnamed";
  }

  private static String digest(String description) {
    return Hashes.sha256Prefix(description == null ? "" : description, 16);
  }
}
