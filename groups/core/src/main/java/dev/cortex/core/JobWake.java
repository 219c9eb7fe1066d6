package dev.cortex.core;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Deadline;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.client.AgentServerClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The waitpoint a background job of {@code remote_bash} signals when it ends ({@code
 * wake_when_done}): armed for the calling session before the job starts, and cancelled again when
 * the job did not start.
 */
final class JobWake {
  private static final Duration CREATE_BUDGET = Duration.ofSeconds(30);
  private static final Duration CANCEL_BUDGET = Duration.ofSeconds(10);

  private final AgentServerClient agentServer;
  private final Clock clock;

  JobWake(AgentServerClient agentServer, Clock clock) {
    this.agentServer = Objects.requireNonNull(agentServer, "agentServer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Creates a waitpoint for the calling session (the session is filled in here).
   *
   * @throws ToolException when the call comes from no session
   */
  Waits.Created arm(ToolCall call, Waits.Create request) {
    String session = call.context().session().sessionId();
    if (session == null) {
      throw new ToolException(
          ErrorCodes.INVALID_ARGUMENT,
          "wake_when_done wakes the session that asked, and this MCP server runs outside one"
              + " (CORTEX_SESSION_ID is not set).");
    }
    Waits.Create mine =
        new Waits.Create(
            session,
            request.label(),
            request.intent(),
            request.members(),
            request.quorum(),
            request.failFast(),
            request.maxSignals(),
            request.expiresInHours(),
            request.device());
    JsonNode created =
        agentServer.post(
            Waits.CREATE,
            mine,
            Deadline.after(CREATE_BUDGET, clock),
            call.context().cancellation(),
            event -> {});
    return WireJson.mapper().treeToValue(created, Waits.Created.class);
  }

  /** Cancels a waitpoint of the calling session, quietly: the job it was for did not start. */
  void cancel(ToolCall call, String id) {
    try {
      agentServer.post(
          Waits.CANCEL,
          new Waits.Cancel(call.context().session().sessionId(), id),
          Deadline.after(CANCEL_BUDGET, clock),
          Cancellation.NONE,
          event -> {});
    } catch (RuntimeException e) {
      // it expires on its own
    }
  }
}
