package dev.cortex.mcp.compose;

import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.mcp.tool.ToolSpec;
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
 * @param leadNote text appended to the description of the first of its tools that a composition
 *     serves (e.g. the remote tools' device catalogue), or null
 * @param instructions a paragraph for the server's {@code instructions}: how an agent uses this
 *     group's tools together, or null when it has nothing to say
 */
public record CapabilityGroup(
    String name,
    String serverKey,
    String description,
    List<ToolSpec> tools,
    List<PromptSpec> prompts,
    List<ResourceSpec> resources,
    LeadNote leadNote,
    String instructions) {

  /**
   * Text for the first served tool among {@code tools}: once in a tool list, where an agent reads
   * it before calling any of them.
   */
  public record LeadNote(java.util.Set<String> tools, String text) {
    public LeadNote {
      tools = java.util.Set.copyOf(tools);
      Objects.requireNonNull(text, "text");
    }
  }

  public CapabilityGroup(
      String name,
      String serverKey,
      String description,
      List<ToolSpec> tools,
      List<PromptSpec> prompts,
      List<ResourceSpec> resources) {
    this(name, serverKey, description, tools, prompts, resources, null, null);
  }

  public CapabilityGroup(
      String name,
      String serverKey,
      String description,
      List<ToolSpec> tools,
      List<PromptSpec> prompts,
      List<ResourceSpec> resources,
      LeadNote leadNote) {
    this(name, serverKey, description, tools, prompts, resources, leadNote, null);
  }

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

  /** This group with {@code note} for the first of its served tools among the note's tools. */
  public CapabilityGroup withLeadNote(LeadNote note) {
    return new CapabilityGroup(
        name, serverKey, description, tools, prompts, resources, note, instructions);
  }

  /** This group with {@code text} as its paragraph of the server's instructions. */
  public CapabilityGroup withInstructions(String text) {
    return new CapabilityGroup(
        name, serverKey, description, tools, prompts, resources, leadNote, text);
  }

  /** A group that serves tools only. */
  public static CapabilityGroup ofTools(
      String name, String serverKey, String description, List<ToolSpec> tools) {
    return new CapabilityGroup(name, serverKey, description, tools, List.of(), List.of());
  }
}
