package dev.cortex.server.sessions;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Hashes;
import dev.cortex.base.Json;
import dev.cortex.protocol.session.McpConfigNames;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a session's backend process gets: its composition of capability groups (seed 001's rules),
 * the MCP configuration file for it, and the environment table its MCP server reads.
 *
 * <ul>
 *   <li>{@code none}: no groups; {@code mcp-config-empty.json}, strictly.
 *   <li>{@code direct}: {@code core} + {@code ext}; {@code interaction} when a person started the
 *       session; the platform group of the channel ({@code web:}, {@code slack:}, {@code feishu:});
 *       {@code mcp-config.json}, whose server takes the composition from {@code
 *       CORTEX_MCP_BUNDLES}.
 *   <li>a subagent ({@code started_by} subagent): {@code core} + {@code ext} on the {@code claude}
 *       backend, {@code core} alone on the others; always with an allowlist, so that the delegation
 *       tools are left out.
 *   <li>a worker of a team ({@code started_by} worker): {@code core} + {@code ext} + {@code
 *       interaction} (its questions and plans go to its main session) + {@code worker-report}.
 *   <li>a team's main session ({@link TeamSettings#mainOn}): the direct groups and {@code workers}.
 *   <li>with a tool allowlist: a merged file {@code mcp-tool-gates/mcp-composition-<digest>.json}
 *       whose server entry carries the groups and the allowlist.
 * </ul>
 */
public final class SessionEnvironment {
  /** Variables of a session that an inherited environment must not leak into another. */
  private static final Set<String> SESSION_VARIABLES =
      Set.of(
          "CORTEX_SESSION_ID",
          "CORTEX_PROJECT",
          "CORTEX_BACKEND",
          "CORTEX_MODEL",
          "CORTEX_PROVIDER",
          "CORTEX_THINKING",
          "CORTEX_CLAUDE_MODEL",
          "CORTEX_MODE",
          "CORTEX_SCHEDULE_TASK_ID",
          "CORTEX_CALLBACK_SOURCE",
          "CORTEX_MCP_BUNDLES",
          "CORTEX_MCP_TOOL_ALLOWLIST",
          "CORTEX_MCP_CONFIG",
          "SLACK_CHANNEL",
          "FEISHU_CHANNEL",
          "CORTEX_CLIENT_TOKEN",
          // The chat platforms' credentials stay with the agent server, which alone talks to them.
          "SLACK_BOT_TOKEN",
          "SLACK_APP_TOKEN",
          "SLACK_SIGNING_SECRET",
          "FEISHU_APP_ID",
          "FEISHU_APP_SECRET",
          "FEISHU_VERIFICATION_TOKEN",
          "FEISHU_ENCRYPT_KEY");

  private final CortexHome home;
  private final Map<String, String> serverEnvironment;
  private final String webhookToken;
  private final java.util.function.IntSupplier webhookPort;
  private final TeamSettings team;

  /**
   * @param serverEnvironment the agent server's own environment, the base of every backend's
   */
  public SessionEnvironment(
      CortexHome home,
      Map<String, String> serverEnvironment,
      String webhookToken,
      java.util.function.IntSupplier webhookPort) {
    this(home, serverEnvironment, webhookToken, webhookPort, TeamSettings.OFF);
  }

  /**
   * @param team whether team mode is on, and for which channels
   */
  public SessionEnvironment(
      CortexHome home,
      Map<String, String> serverEnvironment,
      String webhookToken,
      java.util.function.IntSupplier webhookPort,
      TeamSettings team) {
    this.team = java.util.Objects.requireNonNull(team, "team");
    this.home = home;
    this.serverEnvironment = Map.copyOf(serverEnvironment);
    this.webhookToken = webhookToken;
    this.webhookPort = webhookPort;
  }

  private volatile java.util.function.Function<Session, TurnRequest.Plugins> plugins =
      session -> TurnRequest.Plugins.NONE;

  /**
   * Where the MCP servers of the plugins assigned to a session come from (the agent server's plugin
   * assignments); none until it is set.
   */
  public void plugins(java.util.function.Function<Session, TurnRequest.Plugins> source) {
    this.plugins = java.util.Objects.requireNonNull(source, "source");
  }

  /**
   * The plugin servers of {@code session}'s turn: none for a session without Cortex's tools
   * (composition {@code none}) or a subagent; a source that fails gives none, and the turn goes on.
   */
  public TurnRequest.Plugins pluginsOf(Session session) {
    if (session.composition() == Session.Composition.NONE
        || session.startedBy() == Session.StartedBy.SUBAGENT) {
      return TurnRequest.Plugins.NONE;
    }
    try {
      return plugins.apply(session);
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(SessionEnvironment.class)
          .warn("the plugins of session {} could not be read; its turn has none", session.id(), e);
      return TurnRequest.Plugins.NONE;
    }
  }

  /**
   * The servers of {@code servers} as an MCP configuration file (Claude Code's format), written
   * once per distinct content, owner-only; null when there are none. A server with a proxy is
   * started as its proxy (which holds its values); one without is written as it is when it is a
   * stdio server, and left out when remote (only the proxy may reach a remote server).
   */
  public Path pluginConfig(List<TurnRequest.PluginMcp> servers) {
    ObjectNode root = Json.mapper().createObjectNode();
    ObjectNode entries = root.putObject("mcpServers");
    for (TurnRequest.PluginMcp server : servers) {
      if (server.proxy() != null) {
        ObjectNode entry = entries.putObject(server.key());
        entry.put("type", "stdio");
        entry.put("command", server.proxy().get(0));
        var args = entry.putArray("args");
        server.proxy().subList(1, server.proxy().size()).forEach(args::add);
        continue;
      }
      if (!server.stdio()) {
        continue;
      }
      ObjectNode entry = entries.putObject(server.key());
      entry.put("type", "stdio");
      entry.put("command", server.command());
      var args = entry.putArray("args");
      server.args().forEach(args::add);
      ObjectNode env = entry.putObject("env");
      server.env().forEach(env::put);
      if (server.cwd() != null) {
        entry.put("cwd", server.cwd());
      }
    }
    if (entries.isEmpty()) {
      return null;
    }
    String text = Json.writePretty(root) + "\n";
    Path file =
        home.configDir().resolve("mcp-plugins").resolve("mcp-plugins-" + digest(text) + ".json");
    if (!Files.isRegularFile(file)) {
      CortexHome.writeAtomically(file, text);
    }
    return file;
  }

  /**
   * The command that starts this installation's {@code cortex} (program and leading arguments), as
   * the agent server's {@code direct} configuration names it; empty when that file cannot be read.
   */
  public List<String> launcher() {
    try {
      JsonNode direct =
          Json.mapper().readTree(Files.readString(home.configDir().resolve(McpConfigNames.DIRECT)));
      for (JsonNode server : direct.path("mcpServers")) {
        List<String> argv = new ArrayList<>();
        argv.add(server.path("command").asString());
        for (JsonNode arg : server.path("args")) {
          if (arg.asString().equals("mcp")) {
            return argv;
          }
          argv.add(arg.asString());
        }
      }
    } catch (java.io.IOException | RuntimeException e) {
      // no launcher known
    }
    return List.of();
  }

  /** The groups of {@code session}'s MCP server, in order, with team mode off. */
  public static List<String> groups(Session session) {
    return groups(session, TeamSettings.OFF);
  }

  /** The groups of {@code session}'s MCP server under this server's team mode. */
  public List<String> groupsOf(Session session) {
    return groups(session, team);
  }

  /** The groups of {@code session}'s MCP server, in order. */
  public static List<String> groups(Session session, TeamSettings team) {
    if (session.composition() == Session.Composition.NONE) {
      return List.of();
    }
    if (session.startedBy() == Session.StartedBy.SUBAGENT) {
      // No delegation below a subagent; a Claude subagent keeps ext, any other core alone.
      return session.backend().equals("claude") ? McpConfigNames.DIRECT_GROUPS : List.of("core");
    }
    List<String> groups = new ArrayList<>(McpConfigNames.DIRECT_GROUPS);
    if (session.startedBy() == Session.StartedBy.WORKER) {
      groups.add("interaction");
      groups.add("worker-report");
      return groups;
    }
    if (session.startedBy() == Session.StartedBy.PERSON) {
      groups.add("interaction");
    }
    if (team.mainOn(session.channelKind())) {
      groups.add("workers");
    }
    switch (session.channelKind()) {
      case "web" -> groups.add("web");
      case "slack" -> groups.add("slack");
      case "feishu" -> groups.add("feishu");
      default -> {
        // cli: no platform group
      }
    }
    return groups;
  }

  /** Where a session's MCP servers are described, and whether only they may load. */
  public record McpConfig(Path file, boolean strict) {}

  /** The configuration file of {@code session}'s composition, writing a merged one when needed. */
  public McpConfig mcpConfig(Session session) {
    Path config = home.configDir();
    if (session.composition() == Session.Composition.NONE) {
      return new McpConfig(config.resolve(McpConfigNames.EMPTY), true);
    }
    if (session.toolAllowlist() == null) {
      return new McpConfig(config.resolve(McpConfigNames.DIRECT), false);
    }
    return new McpConfig(gate(config, groupsOf(session), session.toolAllowlist()), true);
  }

  /**
   * Writes (once per distinct composition) the merged file of an allowlisted spawn: the direct
   * file's server with the groups and the allowlist in its environment.
   */
  private static Path gate(Path config, List<String> groups, List<String> allowlist) {
    String bundles = String.join(",", groups);
    String tools = String.join(",", allowlist);
    Path file =
        config
            .resolve("mcp-tool-gates")
            .resolve("mcp-composition-" + digest(bundles + "\n" + tools) + ".json");
    if (Files.isRegularFile(file)) {
      return file;
    }
    ObjectNode merged;
    try {
      JsonNode direct =
          Json.mapper().readTree(Files.readString(config.resolve(McpConfigNames.DIRECT)));
      merged = (ObjectNode) direct.deepCopy();
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalStateException(
          "the agent server's " + McpConfigNames.DIRECT + " is missing or unreadable", e);
    }
    for (JsonNode server : merged.path("mcpServers")) {
      ObjectNode env = ((ObjectNode) server).putObject("env");
      env.put("CORTEX_MCP_BUNDLES", bundles);
      env.put("CORTEX_MCP_TOOL_ALLOWLIST", tools);
    }
    CortexHome.writeAtomically(file, Json.writePretty(merged) + "\n");
    return file;
  }

  private static String digest(String text) {
    return Hashes.sha256Prefix(text, 8);
  }

  /** The complete environment of {@code session}'s backend process. */
  public Map<String, String> environment(Session session, McpConfig config) {
    Map<String, String> env = new LinkedHashMap<>(serverEnvironment);
    SESSION_VARIABLES.forEach(env::remove);
    env.put("CORTEX_HOME", home.root().toString());
    env.put("CORTEX_SESSION_ID", session.id());
    put(env, "CORTEX_PROJECT", session.project());
    env.put("CORTEX_BACKEND", session.backend());
    put(env, "CORTEX_MODEL", session.model());
    put(env, "CORTEX_PROVIDER", session.provider());
    put(env, "CORTEX_THINKING", session.thinking());
    if (session.backend().equals("claude")) {
      put(env, "CORTEX_CLAUDE_MODEL", session.model());
    }
    env.put("CORTEX_MODE", session.mode());
    env.put("CORTEX_MCP_BUNDLES", String.join(",", groupsOf(session)));
    if (session.toolAllowlist() != null) {
      env.put("CORTEX_MCP_TOOL_ALLOWLIST", String.join(",", session.toolAllowlist()));
    }
    env.put("CORTEX_MCP_CONFIG", config.file().toString());
    env.put("CORTEX_WEBHOOK_TOKEN", webhookToken);
    env.put("WEBHOOK_PORT", Integer.toString(webhookPort.getAsInt()));
    String channel = session.channel().substring(session.channel().indexOf(':') + 1);
    switch (session.channelKind()) {
      case "slack" -> env.put("SLACK_CHANNEL", channel);
      case "feishu" -> env.put("FEISHU_CHANNEL", channel);
      default -> {
        // no platform variable
      }
    }
    return env;
  }

  private static void put(Map<String, String> env, String name, String value) {
    if (value != null) {
      env.put(name, value);
    }
  }
}
