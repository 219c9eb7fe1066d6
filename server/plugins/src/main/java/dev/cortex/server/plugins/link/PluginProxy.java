package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import dev.cortex.server.plugins.PluginAssignments;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One plugin server as a local stdio MCP server: each line read is passed to the server through a
 * {@link PluginLink}, each message from it written as a line. On the way it holds the server to the
 * tools a person confirmed: a {@code tools/list} answer that offers a tool not confirmed, or a
 * changed description, is answered with an error instead, the plugin is reported held back (to
 * {@code held}) and no tool of it is called any more. When the link ends, every request still
 * waiting is answered with an error and the proxy stops.
 */
public final class PluginProxy {
  /** The code of the error that answers a request to a plugin held back. */
  public static final int HELD_BACK = -32001;

  private final PluginLink link;
  private final Map<String, String> pins;
  private final String pluginId;
  private final String environment;
  private final Consumer<String> held;
  private final Consumer<String> log;

  /** A request of the client the server has not answered: its id as the client gave it. */
  private record Pending(JsonNode clientId, String method) {}

  private final ConcurrentHashMap<Long, Pending> waiting = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> byClientId = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong ids =
      new java.util.concurrent.atomic.AtomicLong();
  private final CompletableFuture<Integer> done = new CompletableFuture<>();
  private volatile String heldReason;
  private volatile String endedReason;
  private OutputStream out;

  /**
   * @param environment the environment whose assignment it serves (null: none)
   * @param pins the confirmed tools (null: none were pinned, nothing is checked)
   * @param held told once, with the reason, when the server's tools changed
   * @param log where the proxy's own notes go (standard error)
   */
  public PluginProxy(
      PluginLink link,
      String pluginId,
      String environment,
      Map<String, String> pins,
      Consumer<String> held,
      Consumer<String> log) {
    this.link = link;
    this.pluginId = pluginId;
    this.environment = environment;
    this.pins = pins;
    this.held = held;
    this.log = log;
  }

  /**
   * Relays until {@code in} ends: 0, or 1 when the server's link had ended first; the link is then
   * closed.
   */
  public int run(InputStream in, OutputStream out) throws InterruptedException {
    this.out = out;
    try {
      link.start(this::fromServer, this::ended);
    } catch (IOException e) {
      log.accept(e.getMessage());
      endedReason = e.getMessage();
    }
    Thread reader = new Thread(() -> readClient(in), "plugin-proxy-in");
    reader.setDaemon(true);
    reader.start();
    try {
      int code = done.join();
      return endedReason == null ? code : 1;
    } finally {
      link.close();
    }
  }

  private void readClient(InputStream in) {
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        try {
          fromClient(Json.mapper().readTree(line));
        } catch (RuntimeException e) {
          log.accept("a message from the client could not be passed on; it was dropped");
        }
      }
    } catch (IOException e) {
      // the client went away
    } finally {
      done.complete(0);
    }
  }

  /**
   * A message from the client. A request goes on under an id of the proxy's own (so that no answer
   * of the server can pass for another, whatever type its id has); a cancellation names that id.
   */
  private void fromClient(JsonNode message) {
    if (!JsonRpc.isRequest(message)) {
      send(renamedCancellation(message));
      return;
    }
    JsonNode id = message.get("id");
    String method = JsonRpc.method(message);
    if (endedReason != null) {
      write(JsonRpc.error(id, JsonRpc.SERVER_UNAVAILABLE, endedReason));
      return;
    }
    if (heldReason != null && (method.equals("tools/call") || method.equals("tools/list"))) {
      write(JsonRpc.error(id, HELD_BACK, heldMessage()));
      return;
    }
    long own = ids.incrementAndGet();
    waiting.put(own, new Pending(id, method));
    byClientId.put(id.toString(), own);
    ObjectNode renamed = ((ObjectNode) message).deepCopy();
    renamed.put("id", own);
    send(renamed, own);
  }

  private JsonNode renamedCancellation(JsonNode message) {
    if (!JsonRpc.method(message).equals("notifications/cancelled")) {
      return message;
    }
    JsonNode requestId = message.path("params").get("requestId");
    Long own = requestId == null ? null : byClientId.get(requestId.toString());
    if (own == null) {
      return message;
    }
    ObjectNode renamed = ((ObjectNode) message).deepCopy();
    ((ObjectNode) renamed.get("params")).put("requestId", own);
    return renamed;
  }

  private void send(JsonNode message) {
    try {
      link.send(message);
    } catch (IOException e) {
      // a notification or an answer the server will not get: nothing waits for it here
    }
  }

  private void send(JsonNode request, long own) {
    try {
      link.send(request);
    } catch (IOException e) {
      answer(own, JsonRpc.SERVER_UNAVAILABLE, e.getMessage());
    }
  }

  private void fromServer(JsonNode message) {
    if (!JsonRpc.isResponse(message)) {
      write(message);
      return;
    }
    JsonNode id = message.get("id");
    Pending pending =
        id.isIntegralNumber() && id.canConvertToLong() ? waiting.remove(id.longValue()) : null;
    if (pending == null) {
      log.accept("the server answered a request it was not asked; the answer was dropped");
      return;
    }
    byClientId.remove(pending.clientId().toString());
    if ("tools/list".equals(pending.method()) && pins != null && message.has("result")) {
      String change =
          ToolPins.change(pins, ToolPins.tools(message.path("result").path("tools"))).orElse(null);
      if (change != null) {
        if (heldReason == null) {
          heldReason = change;
          log.accept("plugin " + pluginId + " is held back: " + change);
          held.accept(change);
        }
        write(JsonRpc.error(pending.clientId(), HELD_BACK, heldMessage()));
        return;
      }
    }
    ObjectNode restored = ((ObjectNode) message).deepCopy();
    restored.set("id", pending.clientId());
    write(restored);
  }

  private String heldMessage() {
    return "plugin "
        + pluginId
        + " is held back: "
        + heldReason
        + " since a person confirmed it; 'cortex plugins assign "
        + pluginId
        + (environment == null || environment.equals(PluginAssignments.DEFAULT)
            ? ""
            : " --project " + environment)
        + "' confirms it again";
  }

  private void ended(String reason) {
    log.accept(reason);
    endedReason = reason;
    for (Long own : List.copyOf(waiting.keySet())) {
      answer(own, JsonRpc.SERVER_UNAVAILABLE, reason);
    }
  }

  private void answer(long own, int code, String text) {
    Pending pending = waiting.remove(own);
    if (pending != null) {
      byClientId.remove(pending.clientId().toString());
      write(JsonRpc.error(pending.clientId(), code, text));
    }
  }

  private synchronized void write(JsonNode message) {
    try {
      out.write((Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      done.complete(0);
    }
  }
}
