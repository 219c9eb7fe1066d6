package dev.cortex.server.plugins;

import dev.cortex.base.CortexHome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The MCP servers an environment's sessions get from their plugins, as a turn starts them: each
 * active assignment's package read again, a held-back or missing one left out, and {@code
 * ${PLUGIN_DATA}} made real (the plugin's private folder under the data directory, created
 * owner-only on first use). A server that needs that folder when it cannot be made is left out with
 * a note; the plugin's other servers are kept.
 */
public final class PluginMaterials {
  /** The folder of the plugins' data folders, under the data directory. */
  public static final String DATA_DIR = "plugins";

  private PluginMaterials() {}

  /**
   * A server ready to start: {@code key} names it among the session's servers; {@code pins} are its
   * tools as confirmed (null: not pinned, not checked).
   */
  public record Ready(
      String key,
      String pluginId,
      String environment,
      PluginServer server,
      Map<String, String> pins,
      java.time.Instant confirmedAt) {}

  /**
   * The servers ready, the plugins they came from (active ones: their skills are given too), and
   * what was left out and why (for the server's log).
   */
  public record Result(List<Ready> servers, List<Plugin> plugins, List<String> notes) {
    public Result(List<Ready> servers, List<String> notes) {
      this(servers, List.of(), notes);
    }
  }

  /** The servers of {@code assignments} (one environment's) against {@code catalog}. */
  public static Result of(
      PluginCatalog catalog, List<PluginAssignments.Assignment> assignments, Path dataRoot) {
    List<Ready> ready = new ArrayList<>();
    List<Plugin> active = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (PluginAssignments.Assignment a : assignments) {
      Plugin plugin = catalog.get(a.pluginId()).orElse(null);
      String state = a.state(plugin);
      if (!state.equals(PluginAssignments.ACTIVE)) {
        notes.add(
            "plugin "
                + a.pluginId()
                + (state.equals(PluginAssignments.HELD)
                    ? " is held back: "
                        + a.heldBecause(plugin)
                        + " ('cortex plugins assign' confirms it again)"
                    : " is missing or not usable"));
        continue;
      }
      active.add(plugin);
      Result servers = servers(plugin, dataRoot);
      notes.addAll(servers.notes());
      for (Ready r : servers.servers()) {
        Map<String, String> pins = a.confirmedTools().get(r.server().name());
        ready.add(
            new Ready(r.key(), r.pluginId(), a.environment(), r.server(), pins, a.confirmedAt()));
      }
    }
    return new Result(ready, active, notes);
  }

  /**
   * The servers of {@code plugin} with {@code ${PLUGIN_DATA}} made real (for no environment, not
   * pinned): what a person confirms, and what each assignment starts.
   */
  public static Result servers(Plugin plugin, Path dataRoot) {
    List<Ready> ready = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    for (PluginServer server : plugin.servers()) {
      String key = key(plugin.id(), server.name());
      if (!server.needsData()) {
        ready.add(new Ready(key, plugin.id(), null, inRoot(server, plugin), null, null));
        continue;
      }
      Path data = dataRoot.resolve(plugin.id());
      try {
        CortexHome.ensureDirectory(data);
      } catch (RuntimeException e) {
        notes.add(
            "plugin "
                + plugin.id()
                + ": server "
                + server.name()
                + " is left out: its data folder cannot be made");
        continue;
      }
      ready.add(
          new Ready(
              key,
              plugin.id(),
              null,
              inRoot(withData((PluginServer.Stdio) server, data), plugin),
              null,
              null));
    }
    return new Result(ready, notes);
  }

  /** {@code plugin-<id>-<name>}, in the letters a client's server names allow. */
  static String key(String pluginId, String name) {
    return ("plugin-" + pluginId + "-" + name).replaceAll("[^A-Za-z0-9_-]", "_");
  }

  /** A stdio server without a {@code cwd} runs in its package's folder. */
  private static PluginServer inRoot(PluginServer server, Plugin plugin) {
    if (server instanceof PluginServer.Stdio stdio && stdio.cwd() == null) {
      return new PluginServer.Stdio(
          stdio.name(),
          stdio.command(),
          stdio.args(),
          stdio.env(),
          plugin.root().toString(),
          stdio.needsData());
    }
    return server;
  }

  private static PluginServer.Stdio withData(PluginServer.Stdio server, Path data) {
    String dir = data.toString();
    List<String> args = new ArrayList<>();
    server.args().forEach(arg -> args.add(arg.replace(PluginCatalog.DATA_VARIABLE, dir)));
    Map<String, String> env = new LinkedHashMap<>();
    server.env().forEach((k, v) -> env.put(k, v.replace(PluginCatalog.DATA_VARIABLE, dir)));
    return new PluginServer.Stdio(
        server.name(),
        server.command().replace(PluginCatalog.DATA_VARIABLE, dir),
        args,
        env,
        server.cwd() == null ? null : server.cwd().replace(PluginCatalog.DATA_VARIABLE, dir),
        false);
  }
}
