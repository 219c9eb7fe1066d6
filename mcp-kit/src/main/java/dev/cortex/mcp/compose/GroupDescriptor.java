package dev.cortex.mcp.compose;

import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The facts about a capability group that do not need its tools: its name, the server key a client
 * configuration uses for a server led by it, a one-line description, and the name of the explicit
 * client configuration file the agent server writes for it (null when it has none). The group
 * registry, {@code cortex config mcp} and the agent server's generated files all read them here.
 *
 * @param name the name used by {@code --bundles}, e.g. {@code core}
 * @param serverKey e.g. {@code cortex-core}
 * @param configFile e.g. {@code mcp-config-core.json}, or null
 */
public record GroupDescriptor(
    String name, String serverKey, String description, String configFile) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

  public GroupDescriptor {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("group name must match " + NAME + ": " + name);
    }
    Objects.requireNonNull(serverKey, "serverKey of " + name);
    Objects.requireNonNull(description, "description of " + name);
    if (configFile != null && !configFile.matches("mcp-config-[a-z0-9-]+\\.json")) {
      throw new IllegalArgumentException("config file of " + name + " must be mcp-config-*.json");
    }
  }

  /** A group without a configuration file of its own. */
  public static GroupDescriptor of(String name, String serverKey, String description) {
    return new GroupDescriptor(name, serverKey, description, null);
  }

  /** The group with {@code tools}, {@code prompts} and {@code resources}. */
  public CapabilityGroup group(
      java.util.List<ToolSpec> tools,
      java.util.List<PromptSpec> prompts,
      java.util.List<ResourceSpec> resources) {
    return new CapabilityGroup(name, serverKey, description, tools, prompts, resources);
  }

  /** The group with {@code tools} only. */
  public CapabilityGroup group(java.util.List<ToolSpec> tools) {
    return group(tools, java.util.List.of(), java.util.List.of());
  }
}
