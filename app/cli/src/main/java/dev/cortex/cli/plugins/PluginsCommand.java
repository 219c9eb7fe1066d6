package dev.cortex.cli.plugins;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.server.plugins.Plugin;
import dev.cortex.server.plugins.PluginCatalog;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex plugins list|show}: the plugin packages of this home ({@code
 * $CORTEX_HOME/plugins/}), read as the agent server reads them. What they add is shown as summaries
 * only: an executable's file name, how many arguments and which environment variables; a remote
 * server's origin and header names; never a value.
 */
@Command(
    name = "plugins",
    mixinStandardHelpOptions = true,
    description = "Plugin packages of this home: list, show.")
public final class PluginsCommand implements Callable<Integer> {
  private final Io io;

  public PluginsCommand(Io io) {
    this.io = io;
  }

  /** The command with its verbs. */
  public static CommandLine line(Io io) {
    CommandLine plugins = new CommandLine(new PluginsCommand(io));
    plugins.addSubcommand("list", new ListPlugins(io));
    plugins.addSubcommand("show", new Show(io));
    return plugins;
  }

  @Override
  public Integer call() {
    io.err().println("cortex plugins: say list or show.");
    return CortexCommand.USAGE;
  }

  /** {@code cortex plugins list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the plugin packages, by id.")
  public static final class ListPlugins implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public ListPlugins(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      List<Plugin.View> views = catalog(io).stream().map(Plugin::view).toList();
      if (json) {
        io.out().println(Json.writePretty(Map.of("plugins", views)));
        return CortexCommand.OK;
      }
      if (views.isEmpty()) {
        io.err()
            .println(
                "cortex: no plugins in "
                    + PluginCatalog.of(io.home()).dir()
                    + " (one folder per package, with plugin.json).");
        return CortexCommand.OK;
      }
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("ID", "NAME", "VERSION", "SERVERS", "SKILLS", "PROBLEMS"));
      for (Plugin.View v : views) {
        rows.add(
            List.of(
                v.id(),
                v.name() == null ? "-" : v.name(),
                v.version() == null ? "-" : v.version(),
                Integer.toString(v.servers().size()),
                Integer.toString(v.skills().size()),
                Integer.toString(v.problems().size())));
      }
      Table.print(io.out(), rows);
      return CortexCommand.OK;
    }
  }

  /** {@code cortex plugins show ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a plugin package: its servers (summarised), skills and problems.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "ID", description = "The package's folder name.")
    String id;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      Plugin plugin = PluginCatalog.of(io.home()).get(id).orElse(null);
      if (plugin == null) {
        io.err().println("cortex: NOT_FOUND: no plugin '" + id + "' (see 'cortex plugins list').");
        return CortexCommand.FAILED;
      }
      Plugin.View v = plugin.view();
      if (json) {
        io.out().println(Json.writePretty(v));
        return CortexCommand.OK;
      }
      io.out()
          .println(
              v.id()
                  + (v.name() == null ? "" : "  " + v.name())
                  + (v.version() == null ? "" : " " + v.version())
                  + (v.usable() ? "" : "  (not usable)"));
      if (v.description() != null) {
        io.out().println("  " + v.description());
      }
      for (PluginServer.Summary s : v.servers()) {
        io.out().println("  server " + s.name() + " (" + s.type() + "): " + describe(s));
      }
      for (Plugin.SkillView s : v.skills()) {
        io.out()
            .println(
                "  skill  " + s.name() + (s.description() == null ? "" : ": " + s.description()));
      }
      for (Plugin.Problem p : v.problems()) {
        io.out().println("  left out: " + p.component() + ": " + p.reason());
      }
      return CortexCommand.OK;
    }
  }

  /**
   * A summary in one line: {@code node, 2 arguments, env API_KEY} or {@code https://h, headers X}.
   */
  static String describe(PluginServer.Summary s) {
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

  private static List<Plugin> catalog(Io io) {
    try {
      return PluginCatalog.of(io.home()).list();
    } catch (IOException e) {
      throw new UncheckedIOException("the plugins folder could not be read", e);
    }
  }
}
