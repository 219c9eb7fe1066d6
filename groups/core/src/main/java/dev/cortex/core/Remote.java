package dev.cortex.core;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.protocol.webhook.Webhook;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What the remote tools share: a command to a device through the agent server's webhook (with the
 * call's cancellation, which stops the command on the device, and its progress, fed by the
 * command's output as it arrives), and the AGENTS.md files a session has not been sent yet.
 */
final class Remote {
  private final AgentServerClient agentServer;

  Remote(AgentServerClient agentServer) {
    this.agentServer = agentServer;
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
   * @param timeout how long the hub waits for the device
   */
  <T> T run(
      ToolCall call, String device, Action action, Object params, Duration timeout, Class<T> type) {
    AgentServerClient daemon = agentServer;
    String id = UUID.randomUUID().toString();
    Webhook.RemoteCommand command =
        new Webhook.RemoteCommand(
            id, device, action.wireName(), WireJson.tree(params), timeout.toMillis());
    Cancellation cancellation = call.context().cancellation();
    Cancellation.Registration stop =
        cancellation.onCancel(
            () -> {
              Thread thread = new Thread(() -> cancelQuietly(daemon, id), "cortex-remote-cancel");
              thread.setDaemon(true);
              thread.start();
            });
    try {
      JsonNode result =
          daemon.post(
              Webhook.REMOTE_COMMAND,
              command,
              timeout,
              cancellation,
              new Progress(call.context().progress())::event);
      return WireJson.mapper().treeToValue(result, type);
    } catch (JacksonException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The device's answer could not be read; is its cortex client the same version?");
    } finally {
      stop.close();
    }
  }

  /**
   * Creates a waitpoint for the calling session (the session is filled in here).
   *
   * @throws ToolException when the call comes from no session
   */
  Waits.Created createWaitpoint(ToolCall call, Waits.Create request) {
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
            Waits.CREATE, mine, Duration.ofSeconds(30), call.context().cancellation(), event -> {});
    return WireJson.mapper().treeToValue(created, Waits.Created.class);
  }

  /** Cancels a waitpoint of the calling session, quietly: the job it was for did not start. */
  void cancelWaitpoint(ToolCall call, String id) {
    try {
      agentServer.post(
          Waits.CANCEL,
          new Waits.Cancel(call.context().session().sessionId(), id),
          Duration.ofSeconds(10),
          Cancellation.NONE,
          event -> {});
    } catch (RuntimeException e) {
      // it expires on its own
    }
  }

  private static void cancelQuietly(AgentServerClient daemon, String id) {
    try {
      daemon.post(
          Webhook.REMOTE_CANCEL,
          new Webhook.RemoteCancel(id),
          Duration.ofSeconds(10),
          Cancellation.NONE,
          event -> {});
    } catch (CodedException e) {
      // the command ends anyway when the device or the server sees the call gone
    }
  }

  /**
   * The files of {@code chain} this session has not been sent yet (by path and content), marked as
   * sent now.
   */
  List<Actions.AgentsFile> unseen(ToolCall call, String device, List<Actions.AgentsFile> chain) {
    List<Actions.AgentsFile> unseen = new ArrayList<>();
    if (chain == null) {
      return unseen;
    }
    for (Actions.AgentsFile file : chain) {
      if (call.context()
          .memory()
          .firstTime("agents-md|" + device + "|" + file.path() + "|" + file.sha256())) {
        unseen.add(file);
      }
    }
    return unseen;
  }

  /** The output schema of the AGENTS.md files a result carries. */
  static Map<String, Object> agentsSchema() {
    return Schema.array(
        "AGENTS.md and AGENTS.local.md files that apply to this file, from the device's Cortex home"
            + " and the file's folders (outermost first), sent once per session: follow them.",
        Schema.object()
            .required("path", Schema.string("Where the file is on the device."))
            .required("content", Schema.string("Its text (cut at 64 KB)."))
            .required("cut", Schema.bool("True when the text was cut."))
            .build(),
        0,
        0,
        false);
  }

  /** An AGENTS.md file as tools return it. */
  record AgentsNote(String path, String content, boolean cut) {
    static List<AgentsNote> of(List<Actions.AgentsFile> files) {
      return files.stream().map(f -> new AgentsNote(f.path(), f.content(), f.cut())).toList();
    }
  }

  /** Turns a command's output events into progress notifications, a few per second at most. */
  private static final class Progress {
    private static final long EVERY_NANOS = 200_000_000L;
    private final ToolContext.ProgressSink sink;
    private final AtomicInteger chunks = new AtomicInteger();
    private final AtomicLong last = new AtomicLong();

    Progress(ToolContext.ProgressSink sink) {
      this.sink = sink;
    }

    void event(JsonNode event) {
      if (sink == ToolContext.ProgressSink.NONE
          || !"output".equals(event.path("event").asString(""))) {
        return;
      }
      int n = chunks.incrementAndGet();
      long now = System.nanoTime();
      long before = last.get();
      if (n > 1 && now - before < EVERY_NANOS || !last.compareAndSet(before, now)) {
        return;
      }
      String data = event.path("data").asString("").strip();
      int newline = data.lastIndexOf('\n');
      String line = newline >= 0 ? data.substring(newline + 1) : data;
      sink.report(n, null, line.length() > 200 ? line.substring(0, 200) + "…" : line);
    }
  }
}
