package dev.cortex.mcp.compose;

import dev.cortex.base.Json;
import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The groups and tools one server serves: groups from {@code --bundles}, else {@code
 * CORTEX_MCP_BUNDLES}, else the registry's default; tools filtered by {@code
 * CORTEX_MCP_TOOL_ALLOWLIST}, which is checked against the selected groups before any tool is
 * registered.
 *
 * @param groups the selected groups, in selection order
 * @param tools the tools to register: the selected groups' tools that pass the allowlist
 */
public record Composition(List<CapabilityGroup> groups, List<ToolSpec> tools) {

  public Composition {
    groups = List.copyOf(groups);
    tools = List.copyOf(tools);
  }

  /** The server key: the default composition's own, else that of the first group. */
  public String serverKey(GroupRegistry registry) {
    if (groupNames().equals(registry.defaults())) {
      return registry.defaultServerKey();
    }
    return registry.serverKey(groups.get(0).name());
  }

  public List<String> groupNames() {
    return groups.stream().map(CapabilityGroup::name).toList();
  }

  /**
   * Selects groups and tools.
   *
   * @param bundlesFlag the value of {@code --bundles}, or null
   * @param bundlesEnv the value of {@code CORTEX_MCP_BUNDLES}, or null
   * @param allowlistEnv the value of {@code CORTEX_MCP_TOOL_ALLOWLIST}, or null
   * @throws StartupException naming the problem and the valid choices
   */
  public static Composition select(
      GroupRegistry registry, String bundlesFlag, String bundlesEnv, String allowlistEnv) {
    return select(registry, bundlesFlag, bundlesEnv, allowlistEnv, null);
  }

  /**
   * Selects groups and tools, with {@code defaultBundles} (the value of {@code --default-bundles})
   * in place of the registry's default: what a configuration file asks for unless the process that
   * starts the server chose otherwise in {@code CORTEX_MCP_BUNDLES}, as the agent server does for
   * each session.
   */
  public static Composition select(
      GroupRegistry registry,
      String bundlesFlag,
      String bundlesEnv,
      String allowlistEnv,
      String defaultBundles) {
    List<String> names;
    if (bundlesFlag != null) {
      names = parseList(bundlesFlag, "--bundles");
    } else if (bundlesEnv != null && !bundlesEnv.isBlank()) {
      names = parseList(bundlesEnv, "CORTEX_MCP_BUNDLES");
    } else if (defaultBundles != null) {
      names = parseList(defaultBundles, "--default-bundles");
    } else {
      names = registry.defaults();
    }
    List<CapabilityGroup> groups = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String raw : names) {
      String name = groupName(raw);
      if (!seen.add(name)) {
        continue;
      }
      groups.add(
          registry
              .create(name)
              .orElseThrow(
                  () ->
                      new StartupException(
                          "Unknown capability group '"
                              + raw
                              + "'. Known groups: "
                              + String.join(", ", registry.names())
                              + ".")));
    }
    if (groups.isEmpty()) {
      throw new StartupException(
          "No capability group selected. Choose from: "
              + String.join(", ", registry.names())
              + ".");
    }
    List<ToolSpec> all = groups.stream().flatMap(g -> g.tools().stream()).toList();
    return new Composition(groups, withLeadNotes(groups, filter(all, allowlistEnv, seen)));
  }

  /** Appends each group's lead note to the first served tool it names. */
  private static List<ToolSpec> withLeadNotes(List<CapabilityGroup> groups, List<ToolSpec> tools) {
    List<ToolSpec> noted = new ArrayList<>(tools);
    for (CapabilityGroup group : groups) {
      CapabilityGroup.LeadNote note = group.leadNote();
      if (note == null) {
        continue;
      }
      for (int i = 0; i < noted.size(); i++) {
        ToolSpec tool = noted.get(i);
        if (note.tools().contains(tool.name()) && group.tools().contains(tool)) {
          noted.set(i, tool.withDescription(tool.description() + "\n\n" + note.text()));
          break;
        }
      }
    }
    return noted;
  }

  private static List<ToolSpec> filter(
      List<ToolSpec> all, String allowlistEnv, Set<String> groupNames) {
    if (allowlistEnv == null || allowlistEnv.isBlank()) {
      return all;
    }
    Set<String> allowed = new LinkedHashSet<>();
    for (String raw : parseList(allowlistEnv, "CORTEX_MCP_TOOL_ALLOWLIST")) {
      allowed.add(toolName(raw));
    }
    Set<String> served = new TreeSet<>();
    all.forEach(t -> served.add(t.name()));
    List<String> outside = allowed.stream().filter(n -> !served.contains(n)).toList();
    if (!outside.isEmpty()) {
      throw new StartupException(
          "CORTEX_MCP_TOOL_ALLOWLIST names "
              + String.join(", ", outside)
              + ", not served by the selected groups ("
              + String.join(", ", groupNames)
              + "). Their tools: "
              + (served.isEmpty() ? "none" : String.join(", ", served))
              + ".");
    }
    return all.stream().filter(t -> allowed.contains(t.name())).toList();
  }

  /** Accepts both {@code core} and the seed's {@code cortex-core} spelling. */
  static String groupName(String raw) {
    return raw.startsWith("cortex-") ? raw.substring("cortex-".length()) : raw;
  }

  /**
   * Accepts both {@code remote_bash} and a client-prefixed {@code mcp__cortex-core__remote_bash}.
   */
  static String toolName(String raw) {
    if (raw.startsWith("mcp__")) {
      int split = raw.indexOf("__", "mcp__".length());
      if (split > 0) {
        return raw.substring(split + 2);
      }
    }
    return raw;
  }

  /** Parses a JSON array of strings or a comma-separated list. */
  static List<String> parseList(String value, String source) {
    String trimmed = value.trim();
    List<String> items = new ArrayList<>();
    if (trimmed.startsWith("[")) {
      JsonNode node;
      try {
        node = Json.mapper().readTree(trimmed);
      } catch (JacksonException e) {
        throw new StartupException(
            source + " is not a valid JSON array: " + e.getOriginalMessage());
      }
      for (JsonNode item : node) {
        if (!item.isString() || item.asString().isBlank()) {
          throw new StartupException(source + " must be a JSON array of names, got " + item);
        }
        items.add(item.asString().trim());
      }
    } else {
      for (String part : trimmed.split(",")) {
        if (!part.isBlank()) {
          items.add(part.trim());
        }
      }
    }
    return items;
  }
}
