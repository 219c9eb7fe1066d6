package dev.cortex.cli.server;

import dev.cortex.base.StartupException;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.Version;
import dev.cortex.cli.mcp.McpCommand;
import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.caller.RequestWithdrawal;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.Sessions;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.server.client.AgentServerClient;
import dev.cortex.server.loop.SessionServers;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the bundled MCP server of an {@code api} session inside the agent server: the composition
 * {@code cortex mcp} would make in a child process from the same environment table, on this
 * process's database and settings. Its tools reach the agent server through its loopback webhook,
 * as a child's do.
 */
public final class InProcessServers implements SessionServers {
  private final Services services;
  private AgentServerClient client;
  private String clientKey;

  public InProcessServers(Services services) {
    this.services = Objects.requireNonNull(services, "services");
  }

  @Override
  public McpAsyncServer build(
      Map<String, String> environment,
      McpServerTransportProvider transport,
      CancelSignals cancellations) {
    Io io =
        new Io(
            InputStream.nullInputStream(),
            new PrintStream(OutputStream.nullOutputStream(), true),
            System.err,
            Map.copyOf(environment));
    Services session = services.forSession(io, client(io));
    Composition composition;
    try {
      composition =
          Composition.select(
              AllGroups.registry(session),
              null,
              io.env("CORTEX_MCP_BUNDLES"),
              io.env("CORTEX_MCP_TOOL_ALLOWLIST"),
              (String) null);
    } catch (StartupException e) {
      throw new IllegalArgumentException(
          "The session's MCP server could not be composed: " + e.getMessage());
    }
    ToolInvoker invoker =
        new ToolInvoker(composition.tools(), io.home(), Clock.systemDefaultZone());
    return McpAssembly.build(
        McpServer.async(transport),
        composition,
        invoker,
        new McpAssembly.ServerIdentity(
            "cortex", "Cortex", Version.get(), McpCommand.instructions(composition)),
        new McpAssembly.TransportHooks(RequestWithdrawal.NONE, cancellations),
        new Sessions(SessionIdentity.fromEnvironment(environment)));
  }

  /** One webhook client for every session while the webhook's port and token stay the same. */
  private synchronized AgentServerClient client(Io io) {
    String key = io.env("WEBHOOK_PORT") + "\n" + io.env("CORTEX_WEBHOOK_TOKEN");
    if (client == null || !key.equals(clientKey)) {
      client = io.agentServer();
      clientKey = key;
    }
    return client;
  }
}
