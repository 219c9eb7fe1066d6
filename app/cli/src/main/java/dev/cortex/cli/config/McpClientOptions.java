package dev.cortex.cli.config;

import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.cli.config.McpClient.Scope;
import dev.cortex.mcp.compose.Composition;
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

  /**
   * Runs the MCP client setup when {@code --client} was given and returns its exit code; null when
   * none of these options was given.
   */
  Integer run(Io io) {
    if (clientId == null) {
      if (scopeName != null || print || remove || bundles != null) {
        return CortexCommand.usage(
            io, "cortex config mcp: --scope, --print, --remove and --bundles need --client.");
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
    if (bundles != null) {
      if (remove) {
        io.err()
            .println(
                "cortex config mcp: --remove takes the entry out whatever its groups; leave out --bundles.");
        return CortexCommand.USAGE;
      }
      // Unknown groups stop here, as they would stop the server the entry starts.
      Composition.select(AllGroups.registry(io), bundles, null, null);
    }
    return McpClientSetup.run(
        io,
        McpClientPaths.of(io),
        new McpClientSetup.Request(client, scope, print, remove, bundles),
        Launcher.command(io));
  }
}
