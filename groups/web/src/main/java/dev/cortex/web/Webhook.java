package dev.cortex.web;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.session.Web;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** The web routes of the agent server, as the tools call them for their session. */
final class Webhook {
  /** How long a delivery may take: a file of 100 MB is copied by the server. */
  private static final Duration REQUEST = Duration.ofMinutes(5);

  private final AgentServerClient agentServer;

  Webhook(AgentServerClient agentServer) {
    this.agentServer = agentServer;
  }

  /** The calling session's id, or a clear refusal when the call runs outside a session. */
  static String sessionId(ToolCall call) {
    String id = call.context().session().sessionId();
    if (id == null) {
      throw new ToolException(
          Web.Codes.NOT_WEB,
          "Files, views, decisions and boards go to a web workbench session, and this MCP"
              + " server runs outside one (CORTEX_SESSION_ID is not set).");
    }
    return id;
  }

  /**
   * The request {@code build} makes of the session's id, checked by its record's rules: a rule
   * broken is {@code INVALID_ARGUMENT} before anything reaches the server.
   */
  static <T> T request(ToolCall call, Function<String, T> build) {
    String session = sessionId(call);
    try {
      return build.apply(session);
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
  }

  <T> T post(ToolCall call, String route, Object body, Class<T> type) {
    JsonNode result =
        agentServer.post(route, body, REQUEST, call.context().cancellation(), event -> {});
    try {
      return WireJson.mapper().treeToValue(result, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The agent server's answer could not be read; is it the same version as this cortex?");
    }
  }
}
