package dev.cortex.core;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.Deadline;
import dev.cortex.base.ErrorCodes;
import dev.cortex.base.HopTrace;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Webhook;
import dev.cortex.server.client.AgentServerClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * How the remote tools reach a device: a command through the agent server's webhook, under one
 * {@link Deadline} made here when the call starts and handed to every layer below (the webhook
 * client, the server's hub, the device), with the call's cancellation, which stops the command on
 * the device, and its progress, fed by the command's output as it arrives.
 */
final class Remote {
  private static final Duration CANCEL_BUDGET = Duration.ofSeconds(10);

  private final AgentServerClient agentServer;
  private final Clock clock;

  Remote(AgentServerClient agentServer, Clock clock) {
    this.agentServer = Objects.requireNonNull(agentServer, "agentServer");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The {@code device} parameter's schema. */
  static Map<String, Object> deviceSchema() {
    return Schema.pattern(
        "Name of the device to act on, as registered in machines.json (see the device list in"
            + " remote_bash's description).",
        "^" + Machines.NAME.pattern() + "$");
  }

  /**
   * Runs {@code action} on {@code device} and returns the result bound to {@code type}.
   *
   * @param budget how long the device has to answer, from now: the hub waits that long for it
   */
  <T> T run(
      ToolCall call, String device, Action action, Object params, Duration budget, Class<T> type) {
    Deadline deadline = Deadline.after(budget, clock);
    String id = UUID.randomUUID().toString();
    HopTrace.mark(id, "tool.start");
    Webhook.RemoteCommand command =
        new Webhook.RemoteCommand(
            id, device, action.wireName(), WireJson.tree(params), deadline.remainingMillis());
    Cancellation cancellation = call.context().cancellation();
    Cancellation.Registration stop = cancellation.onCancel(() -> cancelInBackground(id));
    try {
      JsonNode result =
          agentServer.post(
              Webhook.REMOTE_COMMAND,
              command,
              deadline,
              cancellation,
              new RemoteProgress(call.context().progress())::event);
      HopTrace.mark(id, "tool.answered");
      T bound = WireJson.mapper().treeToValue(result, type);
      HopTrace.mark(id, "tool.end");
      return bound;
    } catch (JacksonException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The device's answer could not be read; is its cortex client the same version?");
    } finally {
      stop.close();
    }
  }

  /** Tells the server to stop command {@code id}, off the thread that cancels the call. */
  private void cancelInBackground(String id) {
    Thread thread = new Thread(() -> cancelQuietly(id), "cortex-remote-cancel");
    thread.setDaemon(true);
    thread.start();
  }

  private void cancelQuietly(String id) {
    try {
      agentServer.post(
          Webhook.REMOTE_CANCEL,
          new Webhook.RemoteCancel(id),
          Deadline.after(CANCEL_BUDGET, clock),
          Cancellation.NONE,
          event -> {});
    } catch (CodedException e) {
      // the command ends anyway when the device or the server sees the call gone
    }
  }
}
