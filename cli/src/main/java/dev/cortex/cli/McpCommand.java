package dev.cortex.cli;

import dev.cortex.mcp.Composition;
import dev.cortex.mcp.McpAssembly;
import dev.cortex.mcp.StartupException;
import dev.cortex.mcp.StartupTrace;
import dev.cortex.mcp.ToolInvoker;
import dev.cortex.mcp.transport.HttpServe;
import dev.cortex.mcp.transport.StdioTransport;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cortex mcp}: serves the selected groups over stdio or streamable HTTP. */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve MCP on stdio (default) or streamable HTTP.",
      "Groups come from --bundles, else CORTEX_MCP_BUNDLES, else the default composition"
          + " (evidence, workflows). CORTEX_MCP_TOOL_ALLOWLIST limits the tools served."
    })
final class McpCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--bundles",
      paramLabel = "GROUPS",
      description = "Capability groups to serve: a comma list or a JSON array.")
  String bundles;

  @Option(
      names = "--http",
      paramLabel = "PORT",
      description = "Serve streamable HTTP on this port (0 picks a free one) instead of stdio.")
  Integer httpPort;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address to bind with --http (default: ${DEFAULT-VALUE}). A non-loopback address requires CORTEX_MCP_HTTP_TOKEN.")
  String bind;

  McpCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    StartupTrace.mark("command parsed");
    Composition composition =
        Composition.select(
            Groups.registry(),
            bundles,
            io.env("CORTEX_MCP_BUNDLES"),
            io.env("CORTEX_MCP_TOOL_ALLOWLIST"));
    ToolInvoker invoker = ToolsCommand.invoker(io, composition);
    McpAssembly.ServerIdentity identity =
        new McpAssembly.ServerIdentity(
            "cortex", "Cortex", Version.get(), instructions(composition));
    if (httpPort != null) {
      return serveHttp(composition, invoker, identity);
    }
    if (Terminal.stdinIsTerminal()) {
      io.err()
          .println(
              ConnectHint.text(
                  Launcher.command(io), composition.serverKey(Groups.registry()), bundles));
    }
    StdioTransport transport =
        new StdioTransport(
            McpAssembly.sdkMapper(), io.in(), io.out(), StdioTransport.DEFAULT_MAX_LINE_BYTES);
    StartupTrace.mark("composed");
    McpSyncServer server =
        McpAssembly.build(McpServer.sync(transport), composition, invoker, identity);
    StartupTrace.mark("server built");
    transport.serve();
    server.closeGracefully();
    return CortexCommand.OK;
  }

  private int serveHttp(
      Composition composition, ToolInvoker invoker, McpAssembly.ServerIdentity identity)
      throws Exception {
    if (httpPort < 0 || httpPort > 65535) {
      throw new StartupException("--http needs a port between 0 and 65535, got " + httpPort);
    }
    HttpServe.Options options = HttpServe.Options.fromEnvironment(bind, httpPort, io.env());
    HttpServe server =
        HttpServe.start(
            options,
            provider ->
                McpAssembly.build(McpServer.sync(provider), composition, invoker, identity));
    io.err()
        .println(
            "cortex: serving MCP at "
                + server.endpoint()
                + " (groups: "
                + String.join(", ", composition.groupNames())
                + ")");
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "cortex-http-stop"));
    server.join();
    return CortexCommand.OK;
  }

  private static String instructions(Composition composition) {
    StringBuilder text = new StringBuilder("Cortex serves these capability groups: ");
    text.append(String.join(", ", composition.groupNames())).append(". ");
    text.append(
        "Tool errors come back as results with isError and a JSON body {\"error\":{\"code\",\"message\"}}.");
    return text.toString();
  }
}
