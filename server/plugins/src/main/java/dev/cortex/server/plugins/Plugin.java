package dev.cortex.server.plugins;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A plugin package as read from {@code $CORTEX_HOME/plugins/<id>/}: what it says of itself, the MCP
 * servers and skills that passed their checks, and, for each component that did not, why it was
 * left out. A package whose {@code plugin.json} cannot be read has only its id and problems.
 *
 * @param mcpHash the SHA-256 (hex) of its {@code mcp.json} as read, null without one: a change of
 *     the file is a change of what the plugin adds
 */
public record Plugin(
    String id,
    String name,
    String version,
    String description,
    Path root,
    List<PluginServer> servers,
    List<Skill> skills,
    List<Problem> problems,
    String mcpHash) {
  public Plugin {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(root, "root");
    servers = List.copyOf(servers);
    skills = List.copyOf(skills);
    problems = List.copyOf(problems);
  }

  /** Whether its manifest was read: a package without one is listed but never used. */
  public boolean usable() {
    return name != null;
  }

  /** What may be shown of it outside the agent server: its servers as summaries, no paths. */
  public View view() {
    return new View(
        id,
        name,
        version,
        description,
        usable(),
        servers.stream().map(PluginServer::summary).toList(),
        skills.stream().map(s -> new SkillView(s.name(), s.description())).toList(),
        problems,
        mcpHash);
  }

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String id,
      String name,
      String version,
      String description,
      boolean usable,
      List<PluginServer.Summary> servers,
      List<SkillView> skills,
      List<Problem> problems,
      String mcpHash) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record SkillView(String name, String description) {}

  /** A skill of the package: {@code skills/<name>/SKILL.md}. */
  public record Skill(String name, String description, Path file) {}

  /**
   * A component left out, and why, e.g. {@code mcp.json: mcpServers.search} and {@code only
   * ${PLUGIN_ROOT} and ${PLUGIN_DATA} expand; this names ${TOKEN}}.
   */
  public record Problem(String component, String reason) {}
}
