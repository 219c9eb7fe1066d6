package dev.cortex.server.daemon;

import dev.cortex.base.CortexHome;
import dev.cortex.server.plugins.PluginAssignments;
import dev.cortex.server.plugins.PluginCatalog;
import dev.cortex.server.plugins.PluginMaterials;
import dev.cortex.server.plugins.PluginServer;
import dev.cortex.server.plugins.link.ProxySpec;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.storage.Database;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin servers of a session's turn: the plugins assigned to its environment (its project, or
 * {@code default}), read again at each turn so that an edit or a new confirmation counts at once.
 * What is left out (held back, missing, no data folder) goes to the server's log. Each server is
 * served to the session through the plugin proxy ({@code cortex plugin-proxy}), whose file holds
 * its values and the tools confirmed.
 */
final class SessionPlugins {
  private static final Logger log = LoggerFactory.getLogger(SessionPlugins.class);

  private final PluginCatalog catalog;
  private final java.nio.file.Path dataRoot;
  private final Supplier<Database> database;
  private final java.nio.file.Path proxyDir;
  private final Supplier<List<String>> launcher;

  SessionPlugins(CortexHome home, Supplier<Database> database, Supplier<List<String>> launcher) {
    this.catalog = PluginCatalog.of(home);
    this.proxyDir = home.configDir().resolve("mcp-plugins");
    this.launcher = launcher;
    this.dataRoot = home.dataDir().resolve(PluginMaterials.DATA_DIR);
    this.database = database;
  }

  List<TurnRequest.PluginMcp> of(Session session) {
    String environment = PluginAssignments.environmentOf(session.project());
    List<PluginAssignments.Assignment> assigned =
        database.get().read(c -> PluginAssignments.of(c, environment));
    if (assigned.isEmpty()) {
      return List.of();
    }
    PluginMaterials.Result result = PluginMaterials.of(catalog, assigned, dataRoot);
    for (String note : result.notes()) {
      log.warn("session {}: {}", session.id(), note);
    }
    List<String> launcher = this.launcher.get();
    if (launcher.isEmpty()) {
      log.warn(
          "session {}: the plugin proxy's command is not known; its turn has no plugins",
          session.id());
      return List.of();
    }
    List<TurnRequest.PluginMcp> servers = new ArrayList<>();
    for (PluginMaterials.Ready ready : result.servers()) {
      List<String> proxy = new ArrayList<>(launcher);
      proxy.add("plugin-proxy");
      proxy.add(ProxySpec.of(ready).write(proxyDir).toString());
      PluginServer server = ready.server();
      if (server instanceof PluginServer.Stdio stdio) {
        servers.add(
            new TurnRequest.PluginMcp(
                ready.key(),
                ready.pluginId(),
                stdio.name(),
                stdio.type(),
                stdio.command(),
                stdio.args(),
                stdio.env(),
                stdio.cwd(),
                null,
                null,
                proxy));
      } else {
        PluginServer.Remote remote = (PluginServer.Remote) server;
        servers.add(
            new TurnRequest.PluginMcp(
                ready.key(),
                ready.pluginId(),
                remote.name(),
                remote.type(),
                null,
                null,
                null,
                null,
                remote.url().toString(),
                remote.headers(),
                proxy));
      }
    }
    return servers;
  }
}
