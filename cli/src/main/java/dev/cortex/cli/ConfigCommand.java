package dev.cortex.cli;

import dev.cortex.mcp.CortexHome;
import dev.cortex.mcp.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cortex config}: configuration files for MCP clients. */
@Command(
    name = "config",
    description = "Write configuration files.",
    mixinStandardHelpOptions = true)
final class ConfigCommand implements Callable<Integer> {
  private final Io io;

  ConfigCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    io.err().println("cortex config: say 'mcp'.");
    return CortexCommand.USAGE;
  }

  /** One client configuration file: its name, server key and groups (none for the empty one). */
  record McpConfigFile(String fileName, String serverKey, List<String> groups) {}

  /** The files of the agent server's table, in its order. */
  static final List<McpConfigFile> FILES =
      List.of(
          new McpConfigFile("mcp-config.json", "cortex-core", List.of("core", "ext")),
          new McpConfigFile("mcp-config-empty.json", null, List.of()),
          new McpConfigFile("mcp-config-core.json", "cortex-core", List.of("core")),
          new McpConfigFile(
              "mcp-config-interaction.json", "cortex-interaction-bridge", List.of("interaction")),
          new McpConfigFile("mcp-config-slack.json", "cortex-slack", List.of("slack")),
          new McpConfigFile("mcp-config-feishu.json", "cortex-feishu", List.of("feishu")),
          new McpConfigFile("mcp-config-web.json", "cortex-web", List.of("web")));

  /** {@code cortex config mcp}. */
  @Command(
      name = "mcp",
      mixinStandardHelpOptions = true,
      description = {
        "Write the MCP client configuration files into $CORTEX_HOME/config/, pointing at this installation.",
        "With --client: add the cortex server to that client's own configuration file instead."
      })
  static final class WriteMcpConfig implements Callable<Integer> {
    private final Io io;

    @Mixin ClientOptions clientOptions = new ClientOptions();

    WriteMcpConfig(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      Integer forClient = clientOptions.run(io);
      if (forClient != null) {
        return forClient;
      }
      CortexHome home = io.home();
      List<String> launcher = Launcher.command(io);
      for (McpConfigFile file : FILES) {
        Path path = home.configDir().resolve(file.fileName());
        CortexHome.writeAtomically(path, Json.writePretty(render(file, launcher)) + "\n");
        io.out()
            .println(
                path
                    + (file.groups().isEmpty()
                        ? "  (no servers)"
                        : "  " + file.serverKey() + ": " + String.join(" + ", file.groups())));
      }
      return CortexCommand.OK;
    }

    static Map<String, Object> render(McpConfigFile file, List<String> launcher) {
      Map<String, Object> servers = new LinkedHashMap<>();
      if (!file.groups().isEmpty()) {
        List<String> args = new ArrayList<>(launcher.subList(1, launcher.size()));
        args.add("mcp");
        args.add("--bundles");
        args.add(String.join(",", file.groups()));
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("command", launcher.get(0));
        server.put("args", args);
        servers.put(file.serverKey(), server);
      }
      return Map.of("mcpServers", servers);
    }
  }
}
