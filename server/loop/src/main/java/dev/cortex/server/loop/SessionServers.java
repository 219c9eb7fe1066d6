package dev.cortex.server.loop;

import dev.cortex.mcp.caller.CancelSignals;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.Map;

/**
 * Builds a session's bundled MCP server inside the agent server: the same composition of capability
 * groups, for the same session, as {@code cortex mcp} makes in a backend's child process from the
 * same environment table. The program wires it; this module only connects to what it builds.
 */
@FunctionalInterface
public interface SessionServers {
  /**
   * Builds the server of the session described by {@code environment} on {@code transport}.
   *
   * @param environment the session's table ({@code CORTEX_SESSION_ID}, {@code CORTEX_MCP_BUNDLES},
   *     {@code CORTEX_MCP_TOOL_ALLOWLIST}, {@code WEBHOOK_PORT}, ...), as a child would get it
   * @param cancellations how its tools hear that a call was cancelled
   * @throws IllegalArgumentException with a sentence for the person when the composition is wrong
   */
  McpAsyncServer build(
      Map<String, String> environment,
      McpServerTransportProvider transport,
      CancelSignals cancellations);
}
