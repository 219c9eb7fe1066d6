package dev.cortex.server.plugins;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.base.Hashes;
import dev.cortex.base.Json;
import dev.cortex.server.plugins.link.PluginLink;
import dev.cortex.server.plugins.link.PluginProbe;
import dev.cortex.server.plugins.link.ToolPins;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a plugin adds to an environment, as a person is shown it before confirming: each server's
 * summary with the tools it lists now (each server started, or reached, and asked). Confirming an
 * offer assigns the plugin pinned to exactly those tools; its {@link #confirmation} names it, so
 * that a confirmation given for one offer never assigns what another would show.
 *
 * @param mcpHash the hash of the package's {@code mcp.json} the offer was made from
 * @param confirmation a digest of everything shown: plugin, environment, hash and tools
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record PluginOffer(
    String pluginId,
    String name,
    String version,
    String environment,
    @JsonIgnore String mcpHash,
    List<ServerOffer> servers,
    int skills,
    String confirmation) {

  /** How long a server has for each step of listing its tools. */
  public static final Duration PROBE_LIMIT = Duration.ofSeconds(30);

  public PluginOffer {
    Objects.requireNonNull(pluginId, "pluginId");
    Objects.requireNonNull(environment, "environment");
    servers = List.copyOf(servers);
  }

  /** One server of the offer: its summary and the tools it lists. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ServerOffer(PluginServer.Summary server, List<ToolPins.Tool> tools) {
    public ServerOffer {
      tools = List.copyOf(tools);
    }
  }

  /** A server that could not be asked: the message says which and why, safe to show. */
  public static final class ProbeFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ProbeFailure(String message) {
      super(message);
    }
  }

  /**
   * Asks each server of {@code plugin} (usable) for its tools: local ones started with {@code
   * environment} under them, with the plugin's data folder under {@code dataRoot}.
   */
  public static PluginOffer make(
      Plugin plugin, String environmentName, Path dataRoot, Map<String, String> environment)
      throws ProbeFailure {
    PluginMaterials.Result ready = PluginMaterials.servers(plugin, dataRoot);
    if (!ready.notes().isEmpty()) {
      throw new ProbeFailure(ready.notes().get(0) + ".");
    }
    List<ServerOffer> servers = new ArrayList<>();
    for (PluginMaterials.Ready server : ready.servers()) {
      try {
        List<ToolPins.Tool> tools =
            PluginProbe.tools(PluginLink.of(server.server(), environment, line -> {}), PROBE_LIMIT);
        servers.add(new ServerOffer(server.server().summary(), tools));
      } catch (IOException e) {
        throw new ProbeFailure(
            "server "
                + server.server().name()
                + " of "
                + plugin.id()
                + ": "
                + e.getMessage()
                + ".");
      }
    }
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("plugin", plugin.id());
    shown.put("environment", environmentName);
    shown.put("mcp_hash", plugin.mcpHash());
    shown.put("servers", servers);
    return new PluginOffer(
        plugin.id(),
        plugin.name(),
        plugin.version(),
        environmentName,
        plugin.mcpHash(),
        servers,
        plugin.skills().size(),
        Hashes.sha256Prefix(Json.write(shown), 16));
  }

  /** Whether confirming it asks anything of a person: it adds servers. */
  public boolean needsConfirmation() {
    return !servers.isEmpty();
  }

  /** The tools confirmed: server name to pins. */
  public Map<String, Map<String, String>> pins() {
    Map<String, Map<String, String>> pins = new LinkedHashMap<>();
    for (ServerOffer s : servers) {
      pins.put(s.server().name(), ToolPins.of(s.tools()));
    }
    return pins;
  }

  /** The assignment confirming it makes. */
  public PluginAssignments.Assignment assignment(String confirmedBy, Instant at) {
    return new PluginAssignments.Assignment(
        pluginId,
        environment,
        mcpHash,
        servers.stream().map(ServerOffer::server).toList(),
        confirmedBy,
        at,
        pins(),
        null);
  }

  /** Where it goes, in words. */
  public static String where(String environment) {
    return environment.equals(PluginAssignments.DEFAULT)
        ? "sessions without a project"
        : "sessions of project " + environment;
  }

  /** What it adds, as a person is asked on a terminal: servers, their tools, a warning. */
  public String text() {
    StringBuilder text =
        new StringBuilder(
            "Plugin "
                + pluginId
                + " ("
                + name
                + (version == null ? "" : " " + version)
                + ") adds these MCP servers to "
                + where(environment)
                + ":");
    for (ServerOffer offer : servers) {
      PluginServer.Summary s = offer.server();
      text.append("\n  ").append(s.name()).append(" (").append(s.type()).append("): ");
      text.append(describe(s));
      for (ToolPins.Tool tool : offer.tools()) {
        text.append("\n    tool ").append(ToolPins.printable(tool));
        if (tool.description() != null && !tool.description().isBlank()) {
          List<String> lines = tool.description().strip().lines().toList();
          String line = visible(lines.get(0));
          boolean more = lines.size() > 1 || line.length() > 100;
          text.append(": ")
              .append(line.length() <= 100 ? line : line.substring(0, 100))
              .append(more ? " [...]" : "");
        }
      }
    }
    text.append("\nIts servers run with this user's rights: assign only plugins you trust.");
    return text.toString();
  }

  /** {@code text} without control characters (an escape sequence could rewrite a terminal). */
  static String visible(String text) {
    return text.replaceAll("[\\p{Cntrl}\\p{Cf}]", "?");
  }

  /**
   * A summary in one line: {@code node, 2 arguments, env API_KEY} or {@code https://h, headers X}.
   */
  public static String describe(PluginServer.Summary s) {
    if (s.origin() != null) {
      return s.origin()
          + (s.headerNames().isEmpty() ? "" : ", headers " + String.join(", ", s.headerNames()));
    }
    return s.executable()
        + ", "
        + s.argCount()
        + (s.argCount() == 1 ? " argument" : " arguments")
        + (s.envKeys().isEmpty() ? "" : ", env " + String.join(", ", s.envKeys()));
  }
}
