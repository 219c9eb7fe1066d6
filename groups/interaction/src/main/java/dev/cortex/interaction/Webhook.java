package dev.cortex.interaction;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.server.client.AgentServerClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The interaction routes of the agent server, as the tools call them; and the wait of a blocking
 * call: it asks the server again and again ({@link Interactions#AWAIT}, each a long poll) until the
 * interaction ends or the call's deadline (the interaction's TTL) passes, reporting progress as it
 * waits. A server that stops answering (restarted, say) is asked again a moment later, so that the
 * call gets the answer a person gives to the server started anew; a call still without one at its
 * deadline ends with a clear error, never later. A call the client cancels withdraws its question.
 */
final class Webhook {
  /** How long a plain request may take. */
  private static final Duration REQUEST = Duration.ofSeconds(30);

  /** How long one long poll holds at most. */
  private static final int POLL_SECONDS = 20;

  /** The wait past the TTL for the server's own expiry to come back. */
  private static final Duration MARGIN = Duration.ofSeconds(15);

  /** How long a call waits before it asks a server that did not answer again. */
  private static final Duration RETRY = Duration.ofSeconds(1);

  private final AgentServerClient agentServer;
  private final Clock clock;

  Webhook(AgentServerClient agentServer, Clock clock) {
    this.agentServer = agentServer;
    this.clock = clock;
  }

  /** The calling session's id, or a clear refusal when the call runs outside a session. */
  static String sessionId(ToolCall call) {
    String id = call.context().session().sessionId();
    if (id == null) {
      throw new ToolException(
          Interactions.Codes.NO_SESSION,
          "Questions and plans go to the person of an agent-server session, and this MCP server"
              + " runs outside one (CORTEX_SESSION_ID is not set): use them from a session"
              + " ('cortex sessions new', 'cortex chat').");
    }
    return id;
  }

  <T> T post(ToolCall call, String route, Object body, Class<T> type) {
    JsonNode result =
        agentServer.post(route, body, REQUEST, call.context().cancellation(), event -> {});
    return read(result, type);
  }

  /** Waits until the interaction {@code opened} ends; the interaction as it ended. */
  Interactions.View await(ToolCall call, Interactions.Opened opened) {
    String sessionId = opened.interaction().sessionId();
    String id = opened.interaction().id();
    Instant deadline = clock.instant().plusSeconds(opened.ttlSeconds()).plus(MARGIN);
    ToolContext context = call.context();
    Cancellation cancellation = context.cancellation();
    int polls = 0;
    String trouble = null;
    while (true) {
      if (cancellation.isCancelled()) {
        withdraw(sessionId, id);
        throw new ToolException(
            ErrorCodes.CANCELLED, "The call was cancelled; request " + id + " is withdrawn.");
      }
      Duration left = Duration.between(clock.instant(), deadline);
      if (left.isNegative() || left.isZero()) {
        throw new ToolException(
            trouble == null ? Interactions.Codes.EXPIRED : ErrorCodes.UNAVAILABLE,
            trouble == null
                ? "No one answered request " + id + " in time."
                : "No answer to request "
                    + id
                    + " could be had before the call's deadline: "
                    + trouble);
      }
      int wait = (int) Math.max(0, Math.min(POLL_SECONDS, left.toSeconds()));
      Interactions.View view;
      try {
        view =
            read(
                agentServer.post(
                    Interactions.AWAIT,
                    new Interactions.Await(sessionId, id, wait),
                    Duration.ofSeconds(wait).plus(REQUEST),
                    cancellation,
                    event -> {}),
                Interactions.View.class);
        trouble = null;
      } catch (CodedException e) {
        if (!e.code().equals(ErrorCodes.UNAVAILABLE) || cancellation.isCancelled()) {
          throw e;
        }
        trouble = e.getMessage();
        context.progress().report(++polls, null, "the agent server is not answering; asking again");
        pause(cancellation);
        continue;
      }
      if (!view.state().equals(Interactions.OPEN)) {
        return view;
      }
      context
          .progress()
          .report(
              ++polls,
              null,
              "waiting for a person to answer "
                  + id
                  + " ("
                  + Math.max(0, left.toMinutes())
                  + " min left): cortex answer "
                  + id
                  + " …");
    }
  }

  private void withdraw(String sessionId, String id) {
    try {
      agentServer.post(
          Interactions.CANCEL,
          new Interactions.Cancel(sessionId, id),
          REQUEST,
          Cancellation.NONE,
          event -> {});
    } catch (CodedException e) {
      // the record expires on its own
    }
  }

  private static void pause(Cancellation cancellation) {
    CountDownLatch cancelled = new CountDownLatch(1);
    try (Cancellation.Registration ignored = cancellation.onCancel(cancelled::countDown)) {
      cancelled.await(RETRY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolException(ErrorCodes.CANCELLED, "The call was interrupted.");
    }
  }

  private static <T> T read(JsonNode result, Class<T> type) {
    try {
      return WireJson.mapper().treeToValue(result, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The agent server's answer could not be read; is it the same version as this cortex?");
    }
  }
}
