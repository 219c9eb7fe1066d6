package dev.cortex.mcp;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The unit of composition: a named set of tools, prompts and resources served together.
 *
 * @param name the group's name as used by {@code --bundles}, e.g. {@code core}
 * @param serverKey the key a client configuration uses for a server led by this group, e.g. {@code
 *     cortex-core}
 */
public record CapabilityGroup(
    String name,
    String serverKey,
    String description,
    List<ToolSpec> tools,
    List<PromptSpec> prompts,
    List<ResourceSpec> resources) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

  public CapabilityGroup {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("group name must match " + NAME + ": " + name);
    }
    Objects.requireNonNull(serverKey, "serverKey of " + name);
    Objects.requireNonNull(description, "description of " + name);
    tools = List.copyOf(tools);
    prompts = List.copyOf(prompts);
    resources = List.copyOf(resources);
    Set<String> seen = new HashSet<>();
    for (ToolSpec tool : tools) {
      if (!seen.add(tool.name())) {
        throw new IllegalArgumentException("group " + name + " declares " + tool.name() + " twice");
      }
    }
  }

  /** A group that serves tools only. */
  public static CapabilityGroup ofTools(
      String name, String serverKey, String description, List<ToolSpec> tools) {
    return new CapabilityGroup(name, serverKey, description, tools, List.of(), List.of());
  }
}
