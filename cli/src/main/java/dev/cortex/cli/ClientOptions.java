package dev.cortex.cli;

import dev.cortex.cli.McpClient.Scope;
import dev.cortex.mcp.Composition;

/** The {@code --client} options of {@code cortex config mcp}, checked and turned into a request. */
final class ClientOptions {
  private ClientOptions() {}

  static int run(
      Io io, String clientId, String scopeName, boolean print, boolean remove, String bundles) {
    McpClient client = McpClient.byId(clientId).orElse(null);
    if (client == null) {
      io.err()
          .println(
              "cortex config mcp: unknown client '"
                  + clientId
                  + "'. Clients: "
                  + String.join(", ", McpClient.ids())
                  + ".");
      return CortexCommand.USAGE;
    }
    Scope scope;
    if (scopeName == null || scopeName.equals("user")) {
      scope = Scope.USER;
    } else if (scopeName.equals("project")) {
      scope = Scope.PROJECT;
    } else {
      io.err().println("cortex config mcp: --scope is user or project, not '" + scopeName + "'.");
      return CortexCommand.USAGE;
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
      Composition.select(Groups.registry(io), bundles, null, null);
    }
    return ClientSetup.run(
        io,
        ClientPaths.of(io),
        new ClientSetup.Request(client, scope, print, remove, bundles),
        Launcher.command(io));
  }
}
