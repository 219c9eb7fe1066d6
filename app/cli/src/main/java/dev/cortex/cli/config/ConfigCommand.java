package dev.cortex.cli.config;

import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cortex config}: configuration files for MCP clients. */
@Command(
    name = "config",
    description = "Write configuration files.",
    mixinStandardHelpOptions = true)
public final class ConfigCommand implements Callable<Integer> {
  private final Io io;

  public ConfigCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(io, "cortex config: say 'mcp'.");
  }

  /** {@code cortex config mcp}. */
  @Command(
      name = "mcp",
      mixinStandardHelpOptions = true,
      description = {
        "Write the MCP client configuration files into $CORTEX_HOME/config/, pointing at this installation.",
        "With --client: add the cortex server to that client's own configuration file instead."
      })
  public static final class WriteMcpConfig implements Callable<Integer> {
    private final Io io;

    @Mixin McpClientOptions mcpClient = new McpClientOptions();

    public WriteMcpConfig(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      Integer forClient = mcpClient.run(io);
      if (forClient != null) {
        return forClient;
      }
      Map<Path, McpConfigFiles.File> written =
          McpConfigFiles.write(io.home().configDir(), AllGroups.registry(io), Launcher.command(io));
      written.forEach(
          (path, file) ->
              io.out()
                  .println(
                      path
                          + (file.groups().isEmpty()
                              ? "  (no servers)"
                              : "  "
                                  + file.serverKey()
                                  + ": "
                                  + String.join(" + ", file.groups()))));
      return CortexCommand.OK;
    }
  }
}
