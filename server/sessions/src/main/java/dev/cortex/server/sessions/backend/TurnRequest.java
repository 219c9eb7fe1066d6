package dev.cortex.server.sessions.backend;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One turn for a backend.
 *
 * @param sessionId the Cortex session
 * @param messages the user messages that start the turn, oldest first (at least one)
 * @param resume the backend's own conversation id to continue (from an earlier {@link
 *     BackendEvent.Started}), or null for the first turn
 * @param model the model to ask for, or null for the backend's default
 * @param workingDirectory where the backend runs
 * @param environment the complete environment of the backend's process (the session's table: {@code
 *     CORTEX_SESSION_ID}, {@code CORTEX_MCP_BUNDLES}, {@code WEBHOOK_PORT}, ...)
 * @param mcpConfig the MCP configuration file the backend loads (the session's composition)
 * @param strictMcpConfig whether only that file's servers may load ({@code none} composition)
 * @param program the program of a {@code command} backend (argv), or null
 * @param plugins what the plugins assigned to the session give its turn: MCP servers and skills
 */
public record TurnRequest(
    String sessionId,
    List<Message> messages,
    String resume,
    String model,
    Path workingDirectory,
    Map<String, String> environment,
    Path mcpConfig,
    boolean strictMcpConfig,
    List<String> program,
    Plugins plugins) {
  public TurnRequest {
    Objects.requireNonNull(sessionId, "sessionId");
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a turn starts with at least one message");
    }
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(mcpConfig, "mcpConfig");
    program = program == null ? null : List.copyOf(program);
    plugins = plugins == null ? Plugins.NONE : plugins;
  }

  /** A turn without plugins. */
  public TurnRequest(
      String sessionId,
      List<Message> messages,
      String resume,
      String model,
      Path workingDirectory,
      Map<String, String> environment,
      Path mcpConfig,
      boolean strictMcpConfig,
      List<String> program) {
    this(
        sessionId,
        messages,
        resume,
        model,
        workingDirectory,
        environment,
        mcpConfig,
        strictMcpConfig,
        program,
        Plugins.NONE);
  }

  /**
   * What the plugins assigned to a session give one of its turns.
   *
   * @param servers their MCP servers, ready to start
   * @param mcpConfig those servers as an MCP configuration file (Claude Code's format, owner-only)
   *     loaded after the session's own, or null when none
   * @param skills their skills
   * @param skillDirs those skills as Claude Code plugin folders holding nothing but them (for
   *     {@code --plugin-dir}), one per plugin
   */
  public record Plugins(
      List<PluginMcp> servers, Path mcpConfig, List<PluginSkill> skills, List<Path> skillDirs) {
    public static final Plugins NONE = new Plugins(List.of(), null, List.of(), List.of());

    public Plugins {
      servers = servers == null ? List.of() : List.copyOf(servers);
      skills = skills == null ? List.of() : List.copyOf(skills);
      skillDirs = skillDirs == null ? List.of() : List.copyOf(skillDirs);
    }

    /** The same with {@code config} as the servers' configuration file. */
    public Plugins withMcpConfig(Path config) {
      return new Plugins(servers, config, skills, skillDirs);
    }

    public boolean isEmpty() {
      return servers.isEmpty() && skills.isEmpty();
    }
  }

  /**
   * A skill of a plugin assigned to the session.
   *
   * @param file its {@code SKILL.md}
   */
  public record PluginSkill(String plugin, String name, String description, Path file) {
    public PluginSkill {
      Objects.requireNonNull(plugin, "plugin");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(file, "file");
    }
  }

  /**
   * An MCP server of a plugin assigned to the session, with its values expanded: a {@code stdio}
   * server ({@code command}, {@code args}, {@code env}, {@code cwd}) or a remote one ({@code
   * streamable-http} or {@code sse}: {@code url}, {@code headers}).
   *
   * @param key its name among the session's servers: {@code plugin-<plugin>-<name>}
   * @param proxy the command (program and arguments) that serves it on stdio through Cortex's
   *     plugin proxy, which holds its values, refuses redirects and keeps it to the tools a person
   *     confirmed; null when there is none (the server is then started or reached as it is)
   */
  public record PluginMcp(
      String key,
      String plugin,
      String name,
      String type,
      String command,
      List<String> args,
      Map<String, String> env,
      String cwd,
      String url,
      Map<String, String> headers,
      List<String> proxy) {
    public PluginMcp {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(type, "type");
      args = args == null ? List.of() : List.copyOf(args);
      env = env == null ? Map.of() : Map.copyOf(env);
      headers = headers == null ? Map.of() : Map.copyOf(headers);
      proxy = proxy == null ? null : List.copyOf(proxy);
    }

    public boolean stdio() {
      return type.equals("stdio");
    }
  }

  /**
   * A user message of the turn.
   *
   * @param id its id, by which the backend acknowledges it (its number in the session's inbox)
   */
  public record Message(String id, String text) {
    public Message {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
    }
  }

  /** The turn's messages as one prompt: their texts, separated by blank lines. */
  public String prompt() {
    return String.join("\n\n", messages.stream().map(Message::text).toList());
  }

  /** The ids of the turn's messages, in order. */
  public List<String> messageIds() {
    return messages.stream().map(Message::id).toList();
  }
}
