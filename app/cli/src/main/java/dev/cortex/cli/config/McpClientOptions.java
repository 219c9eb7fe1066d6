package dev.cortex.cli.config;

import dev.cortex.base.CortexHome;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.cli.config.McpClient.Scope;
import dev.cortex.mcp.compose.Composition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The {@code --client} options of {@code cortex config mcp} (a picocli mixin), checked and turned
 * into a {@link McpClientSetup.Request}.
 */
final class McpClientOptions {
  @Option(
      names = "--client",
      paramLabel = "CLIENT",
      description =
          "Add cortex to this client's configuration: claude-desktop, claude-code, vscode, cursor.")
  String clientId;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description =
          "user (default): the person's own file; project: the current directory's project file.")
  String scopeName;

  @Option(names = "--print", description = "Print the entry and the file it belongs in instead.")
  boolean print;

  @Option(names = "--remove", description = "Take the cortex entry out of the file again.")
  boolean remove;

  @Option(
      names = "--bundles",
      paramLabel = "GROUPS",
      description =
          "The groups the entry serves (as cortex mcp --bundles); default: the default composition.")
  String bundles;

  @Option(
      names = "--read-only",
      description =
          "The entry's server serves only the tools that change nothing (cortex mcp --read-only).")
  boolean readOnly;

  @Option(
      names = "--tools",
      paramLabel = "LIST",
      description =
          "The entry's server serves only these tools, a comma list (cortex mcp --tools).")
  String tools;

  @Option(
      names = "--exclude-tools",
      paramLabel = "LIST",
      description =
          "The entry's server leaves these tools out, a comma list (cortex mcp --exclude-tools).")
  String excludeTools;

  /** A comma list of tool names, as {@code cortex mcp} takes them. */
  private static final java.util.regex.Pattern TOOL_LIST =
      java.util.regex.Pattern.compile("[A-Za-z0-9_-]{1,128}(,[A-Za-z0-9_-]{1,128})*");

  /**
   * Runs the MCP client setup when {@code --client} was given and returns its exit code; null when
   * none of these options was given.
   */
  Integer run(Io io) {
    if (clientId == null) {
      if (scopeName != null || print || remove || bundles != null || serverOptions()) {
        return CortexCommand.usage(
            io,
            "cortex config mcp: --scope, --print, --remove, --bundles, --read-only, --tools and"
                + " --exclude-tools need --client.");
      }
      return null;
    }
    McpClient client = McpClient.byId(clientId).orElse(null);
    if (client == null) {
      return CortexCommand.usage(
          io,
          "cortex config mcp: unknown client '"
              + clientId
              + "'. Clients: "
              + String.join(", ", McpClient.ids())
              + ".");
    }
    Scope scope;
    if (scopeName == null || scopeName.equals("user")) {
      scope = Scope.USER;
    } else if (scopeName.equals("project")) {
      scope = Scope.PROJECT;
    } else {
      return CortexCommand.usage(
          io, "cortex config mcp: --scope is user or project, not '" + scopeName + "'.");
    }
    if (print && remove) {
      io.err().println("cortex config mcp: --print shows an entry to add; leave out --remove.");
      return CortexCommand.USAGE;
    }
    if (remove && (bundles != null || serverOptions())) {
      return CortexCommand.usage(
          io,
          "cortex config mcp: --remove takes the entry out whatever its server serves; leave out"
              + " --bundles, --read-only, --tools and --exclude-tools.");
    }
    for (String[] list : new String[][] {{"--tools", tools}, {"--exclude-tools", excludeTools}}) {
      if (list[1] != null && !TOOL_LIST.matcher(list[1]).matches()) {
        return CortexCommand.usage(
            io,
            "cortex config mcp: "
                + list[0]
                + " takes a comma list of tool names (letters, digits, '_' and '-'), not '"
                + list[1]
                + "'.");
      }
    }
    if (bundles != null) {
      // Unknown groups stop here, as they would stop the server the entry starts.
      Composition.select(AllGroups.registry(io), bundles, null, null);
    }
    return McpClientSetup.run(
        io,
        McpClientPaths.of(io),
        new McpClientSetup.Request(client, scope, print, remove, serverArgs(), serverEnv(io)),
        Launcher.command(io));
  }

  private boolean serverOptions() {
    return readOnly || tools != null || excludeTools != null;
  }

  /** The arguments the entry's {@code cortex mcp} gets, in a fixed order. */
  private List<String> serverArgs() {
    List<String> args = new ArrayList<>();
    if (bundles != null) {
      args.addAll(List.of("--bundles", bundles));
    }
    if (readOnly) {
      args.add("--read-only");
    }
    if (tools != null) {
      args.addAll(List.of("--tools", tools));
    }
    if (excludeTools != null) {
      args.addAll(List.of("--exclude-tools", excludeTools));
    }
    return args;
  }

  /**
   * The entry's environment: {@code CORTEX_HOME} when this run's home is not the one a client
   * started with only the user's home directory in its environment would find (a client started
   * from the desktop has neither this shell's {@code CORTEX_HOME} nor its {@code XDG_DATA_HOME}),
   * and {@code CORTEX_DATA_DIR} when it is set.
   */
  static Map<String, String> serverEnv(Io io) {
    String os = System.getProperty("os.name", "");
    String javaHome = System.getProperty("user.home");
    Map<String, String> bare = new LinkedHashMap<>();
    for (String name : List.of("HOME", "USERPROFILE", "LOCALAPPDATA")) {
      if (io.env(name) != null) {
        bare.put(name, io.env(name));
      }
    }
    CortexHome home = io.home();
    Map<String, String> env = new LinkedHashMap<>();
    if (!home.root().equals(CortexHome.resolve(bare, os, javaHome).root())) {
      env.put("CORTEX_HOME", home.root().toString());
    }
    String data = io.env("CORTEX_DATA_DIR");
    if (data != null && !data.isBlank()) {
      env.put("CORTEX_DATA_DIR", home.dataDir().toString());
    }
    return env;
  }
}
