package dev.cortex.server.daemon;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Hashes;
import dev.cortex.base.Json;
import dev.cortex.server.plugins.Plugin;
import dev.cortex.server.plugins.PluginAssignments;
import dev.cortex.server.plugins.PluginCatalog;
import dev.cortex.server.plugins.PluginMaterials;
import dev.cortex.server.plugins.link.ProxySpec;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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
  private final Path dataRoot;
  private final Supplier<Database> database;
  private final Path proxyDir;
  private final Path skillsRoot;
  private final Supplier<List<String>> launcher;

  SessionPlugins(CortexHome home, Supplier<Database> database, Supplier<List<String>> launcher) {
    this.catalog = PluginCatalog.of(home);
    this.proxyDir = home.configDir().resolve("mcp-plugins");
    this.skillsRoot = home.configDir().resolve("plugin-skills");
    this.launcher = launcher;
    this.dataRoot = home.dataDir().resolve(PluginMaterials.DATA_DIR);
    this.database = database;
  }

  TurnRequest.Plugins of(Session session) {
    String environment = PluginAssignments.environmentOf(session.project());
    List<PluginAssignments.Assignment> assigned =
        database.get().read(c -> PluginAssignments.of(c, environment));
    if (assigned.isEmpty()) {
      return TurnRequest.Plugins.NONE;
    }
    PluginMaterials.Result result = PluginMaterials.of(catalog, assigned, dataRoot);
    for (String note : result.notes()) {
      log.warn("session {}: {}", session.id(), note);
    }
    List<TurnRequest.PluginSkill> skills = new ArrayList<>();
    List<Path> skillDirs = new ArrayList<>();
    for (Plugin plugin : result.plugins()) {
      for (Plugin.Skill skill : plugin.skills()) {
        skills.add(
            new TurnRequest.PluginSkill(
                plugin.id(), skill.name(), skill.description(), skill.file()));
      }
      if (!plugin.skills().isEmpty()) {
        try {
          skillDirs.add(skillDir(plugin));
        } catch (IOException | RuntimeException e) {
          log.warn(
              "session {}: the skills of plugin {} could not be laid out",
              session.id(),
              plugin.id());
        }
      }
    }
    List<String> launcher = this.launcher.get();
    if (launcher.isEmpty() && !result.servers().isEmpty()) {
      log.warn(
          "session {}: the plugin proxy's command is not known; its turn has no plugin servers",
          session.id());
      return new TurnRequest.Plugins(List.of(), null, skills, skillDirs);
    }
    List<TurnRequest.PluginMcp> servers = new ArrayList<>();
    for (PluginMaterials.Ready ready : result.servers()) {
      List<String> proxy = new ArrayList<>(launcher);
      proxy.add("plugin-proxy");
      ProxySpec spec = ProxySpec.of(ready);
      proxy.add(spec.write(proxyDir).toString());
      // The spec's fields are the server's, stdio or remote: the turn carries the same.
      servers.add(
          new TurnRequest.PluginMcp(
              ready.key(),
              spec.plugin(),
              spec.name(),
              spec.type(),
              spec.command(),
              spec.args(),
              spec.env(),
              spec.cwd(),
              spec.url(),
              spec.headers(),
              proxy));
    }
    return new TurnRequest.Plugins(servers, null, skills, skillDirs);
  }

  /**
   * The plugin's skills as a Claude Code plugin folder that holds nothing else (so that no hook,
   * agent or native MCP configuration of the package loads unasked): {@code
   * config/plugin-skills/<id>-<digest>/}, with a manifest and a link to each skill's folder.
   */
  private Path skillDir(Plugin plugin) throws IOException {
    StringBuilder key = new StringBuilder(plugin.root().toString());
    plugin.skills().forEach(s -> key.append('\n').append(s.name()));
    Path dir = skillsRoot.resolve(plugin.id() + "-" + Hashes.sha256Prefix(key.toString(), 6));
    if (Files.isDirectory(dir.resolve("skills"))) {
      return dir;
    }
    Path building = skillsRoot.resolve(".building-" + plugin.id() + "-" + UUID.randomUUID());
    CortexHome.ensureDirectory(building.resolve(".claude-plugin"));
    CortexHome.writeAtomically(
        building.resolve(".claude-plugin/plugin.json"),
        Json.writePretty(
                Map.of(
                    "name",
                    "cortex-" + plugin.id().replaceAll("[^a-z0-9-]", "-"),
                    "description",
                    "The skills of the plugin package " + plugin.id() + "."))
            + "\n");
    CortexHome.ensureDirectory(building.resolve("skills"));
    for (Plugin.Skill skill : plugin.skills()) {
      Files.createSymbolicLink(
          building.resolve("skills").resolve(skill.name()), skill.file().getParent());
    }
    try {
      Files.move(building, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      // Another turn laid it out first.
      try (var left = Files.walk(building)) {
        for (Path p : left.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
      if (!Files.isDirectory(dir.resolve("skills"))) {
        throw e;
      }
    }
    return dir;
  }
}
