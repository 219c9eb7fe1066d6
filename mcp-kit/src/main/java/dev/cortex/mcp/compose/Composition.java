package dev.cortex.mcp.compose;

import dev.cortex.base.Json;
import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The groups and tools one server serves: groups from {@code --bundles}, else {@code
 * CORTEX_MCP_BUNDLES}, else the registry's default; tools chosen by a {@link ToolChoice} ({@code
 * --tools} or {@code CORTEX_MCP_TOOL_ALLOWLIST}, {@code --exclude-tools}, {@code --read-only}),
 * whose names are checked against the selected groups before any tool is registered.
 *
 * @param groups the selected groups, in selection order
 * @param tools the tools to register: the selected groups' tools that the choice keeps
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
    return select(registry, bundlesFlag, bundlesEnv, allowlistEnv, (String) null);
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
    return select(
        registry,
        bundlesFlag,
        bundlesEnv,
        defaultBundles,
        ToolChoice.of(false, null, allowlistEnv, null));
  }

  /**
   * Selects groups ({@code --bundles}, else {@code CORTEX_MCP_BUNDLES}, else {@code
   * defaultBundles}, else the registry's default; {@code all} is every known group), then their
   * tools as {@code choice} says.
   *
   * @throws StartupException naming the problem and the valid choices
   */
  public static Composition select(
      GroupRegistry registry,
      String bundlesFlag,
      String bundlesEnv,
      String defaultBundles,
      ToolChoice choice) {
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
    if (names.size() == 1 && names.get(0).equals(ALL)) {
      names = registry.names();
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
                              + " (or all).")));
    }
    if (groups.isEmpty()) {
      throw new StartupException(
          "No capability group selected. Choose from: "
              + String.join(", ", registry.names())
              + ".");
    }
    List<ToolSpec> all = groups.stream().flatMap(g -> g.tools().stream()).toList();
    List<ToolSpec> chosen = choice.apply(all, seen, elsewhere(registry, seen, choice, all));
    return new Composition(groups, withLeadNotes(groups, chosen));
  }

  /** The word that selects every known group. */
  public static final String ALL = "all";

  /**
   * The tools of the groups not selected, by group, when {@code choice} names a tool the selected
   * groups lack (only then are those groups built, to say where the tool is).
   */
  private static Map<String, List<String>> elsewhere(
      GroupRegistry registry, Set<String> selected, ToolChoice choice, List<ToolSpec> all) {
    Set<String> served = new HashSet<>();
    all.forEach(t -> served.add(t.name()));
    boolean missing =
        java.util.stream.Stream.concat(choice.only().stream(), choice.excluded().stream())
            .anyMatch(n -> !served.contains(n));
    Map<String, List<String>> tools = new LinkedHashMap<>();
    if (!missing) {
      return tools;
    }
    for (String name : registry.names()) {
      if (!selected.contains(name)) {
        registry
            .create(name)
            .ifPresent(g -> tools.put(name, g.tools().stream().map(ToolSpec::name).toList()));
      }
    }
    return tools;
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
