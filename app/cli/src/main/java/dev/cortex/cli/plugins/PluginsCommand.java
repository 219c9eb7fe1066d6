package dev.cortex.cli.plugins;

import dev.cortex.base.Json;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.cli.Terminal;
import dev.cortex.cli.workflows.CliConsent;
import dev.cortex.server.plugins.Plugin;
import dev.cortex.server.plugins.PluginAssignments;
import dev.cortex.server.plugins.PluginCatalog;
import dev.cortex.server.plugins.PluginMaterials;
import dev.cortex.server.plugins.PluginOffer;
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
    description = "Plugin packages of this home: list, show, assign, unassign.")
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
    plugins.addSubcommand("assign", new Assign(io));
    plugins.addSubcommand("unassign", new Unassign(io));
    return plugins;
  }

  @Override
  public Integer call() {
    io.err().println("cortex plugins: say list, show, assign or unassign.");
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
      List<Plugin> plugins = catalog(io);
      List<Plugin.View> views = plugins.stream().map(Plugin::view).toList();
      List<PluginAssignments.View> assigned =
          PluginAssignments.views(
              AllGroups.database(io).get().read(PluginAssignments::all),
              PluginCatalog.of(io.home()));
      if (json) {
        io.out().println(Json.writePretty(Map.of("plugins", views, "assignments", assigned)));
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
      rows.add(List.of("ID", "NAME", "VERSION", "SERVERS", "SKILLS", "PROBLEMS", "ASSIGNED"));
      for (Plugin.View v : views) {
        List<String> where = new ArrayList<>();
        for (PluginAssignments.View a : assigned) {
          if (a.pluginId().equals(v.id())) {
            where.add(
                a.environment()
                    + (a.state().equals(PluginAssignments.ACTIVE) ? "" : " (" + a.state() + ")"));
          }
        }
        rows.add(
            List.of(
                v.id(),
                v.name() == null ? "-" : v.name(),
                v.version() == null ? "-" : v.version(),
                Integer.toString(v.servers().size()),
                Integer.toString(v.skills().size()),
                Integer.toString(v.problems().size()),
                where.isEmpty() ? "-" : String.join(", ", where)));
      }
      Table.print(io.out(), rows);
      for (PluginAssignments.View a : assigned) {
        if (a.state().equals(PluginAssignments.HELD)) {
          io.err()
              .println(
                  "cortex: "
                      + a.pluginId()
                      + " is held back from "
                      + a.environment()
                      + ": "
                      + a.heldReason()
                      + "; confirm it again with"
                      + " 'cortex plugins assign "
                      + a.pluginId()
                      + (a.environment().equals(PluginAssignments.DEFAULT)
                          ? ""
                          : " --project " + a.environment())
                      + "'.");
        } else if (a.state().equals(PluginAssignments.MISSING)) {
          io.err()
              .println(
                  "cortex: "
                      + a.pluginId()
                      + " is assigned to "
                      + a.environment()
                      + " but its package is missing or not usable.");
        }
      }
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
        io.out()
            .println("  server " + s.name() + " (" + s.type() + "): " + PluginOffer.describe(s));
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

  /** {@code cortex plugins assign ID}. */
  @Command(
      name = "assign",
      mixinStandardHelpOptions = true,
      description =
          "Give a plugin to the sessions of a project (or, without --project, to sessions that"
              + " have none), after a person confirms what it adds.")
  public static final class Assign implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "ID", description = "The package's folder name.")
    String id;

    @Option(names = "--project", paramLabel = "PROJECT", description = "The sessions' project.")
    String project;

    @Option(names = "--yes", description = "Confirm what it adds without asking.")
    boolean yes;

    public Assign(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      String environment = environment(io, project);
      if (environment == null) {
        return CortexCommand.USAGE;
      }
      Plugin plugin = PluginCatalog.of(io.home()).get(id).orElse(null);
      if (plugin == null) {
        io.err().println("cortex: NOT_FOUND: no plugin '" + id + "' (see 'cortex plugins list').");
        return CortexCommand.FAILED;
      }
      if (!plugin.usable()) {
        io.err()
            .println(
                "cortex: PLUGIN_UNUSABLE: "
                    + id
                    + " cannot be used: "
                    + plugin.problems().get(0).component()
                    + ": "
                    + plugin.problems().get(0).reason()
                    + ".");
        return CortexCommand.FAILED;
      }
      String by = "--yes";
      PluginOffer offer;
      try {
        if (!plugin.servers().isEmpty()) {
          io.err().println("cortex: asking the servers of " + plugin.id() + " for their tools...");
        }
        offer =
            PluginOffer.make(
                plugin,
                environment,
                io.home().dataDir().resolve(PluginMaterials.DATA_DIR),
                System.getenv());
      } catch (PluginOffer.ProbeFailure e) {
        io.err()
            .println("cortex: PLUGIN_SERVER_FAILED: " + e.getMessage() + " Nothing was assigned.");
        return CortexCommand.FAILED;
      }
      if (offer.needsConfirmation()) {
        String message = offer.text();
        if (yes || CliConsent.isSet(io.env(CliConsent.ASSUME_YES))) {
          io.err().println(message);
        } else if (!Terminal.stdinIsTerminal()) {
          io.err()
              .println(
                  "cortex: CONFIRMATION_NEEDED: "
                      + id
                      + " adds MCP servers and there is no terminal to ask on; pass --yes (or"
                      + " set "
                      + CliConsent.ASSUME_YES
                      + "=1) to confirm what it adds. Nothing was assigned.");
          return CortexCommand.FAILED;
        } else if (!Terminal.confirm(io, message, "Assign it")) {
          io.err().println("cortex: CONFIRMATION_DECLINED: nothing was assigned.");
          return CortexCommand.FAILED;
        } else {
          by = "terminal";
        }
      }
      PluginAssignments.Assignment assignment = offer.assignment(by, java.time.Instant.now());
      AllGroups.database(io)
          .get()
          .write(
              c -> {
                PluginAssignments.put(c, assignment);
                return null;
              });
      io.err()
          .println(
              "cortex: "
                  + plugin.id()
                  + " is assigned to "
                  + where(environment)
                  + " (servers: "
                  + plugin.servers().size()
                  + ", skills: "
                  + plugin.skills().size()
                  + ").");
      return CortexCommand.OK;
    }
  }

  /** {@code cortex plugins unassign ID}. */
  @Command(
      name = "unassign",
      mixinStandardHelpOptions = true,
      description = "Take a plugin from the sessions of a project (or of sessions without one).")
  public static final class Unassign implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "ID", description = "The package's folder name.")
    String id;

    @Option(names = "--project", paramLabel = "PROJECT", description = "The sessions' project.")
    String project;

    public Unassign(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      String environment = environment(io, project);
      if (environment == null) {
        return CortexCommand.USAGE;
      }
      boolean removed =
          AllGroups.database(io).get().write(c -> PluginAssignments.remove(c, id, environment));
      if (!removed) {
        io.err()
            .println(
                "cortex: NOT_FOUND: " + id + " is not assigned to " + where(environment) + ".");
        return CortexCommand.FAILED;
      }
      io.err().println("cortex: " + id + " is no longer assigned to " + where(environment) + ".");
      return CortexCommand.OK;
    }
  }

  /** The environment of {@code --project}, or null (said why) when it is not a project's name. */
  private static String environment(Io io, String project) {
    if (project == null) {
      return PluginAssignments.DEFAULT;
    }
    if (!PluginAssignments.ENVIRONMENT.matcher(project).matches()) {
      io.err()
          .println(
              "cortex: INVALID_ARGUMENT: --project is a project's name: 1-128 letters, digits and"
                  + " '. _ : / -', starting with a letter or digit.");
      return null;
    }
    return project;
  }

  private static String where(String environment) {
    return PluginOffer.where(environment);
  }

  private static List<Plugin> catalog(Io io) {
    try {
      return PluginCatalog.of(io.home()).list();
    } catch (IOException e) {
      throw new UncheckedIOException("the plugins folder could not be read", e);
    }
  }
}
