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
  private final ConcurrentHashMap<String, JsonNode> waiting = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, String> methods = new ConcurrentHashMap<>();
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
        JsonNode message;
        try {
          message = Json.mapper().readTree(line);
        } catch (RuntimeException e) {
          log.accept("a line from the client is not JSON; it was dropped");
          continue;
        }
        fromClient(message);
      }
    } catch (IOException e) {
      // the client went away
    }
    done.complete(0);
  }

  private void fromClient(JsonNode message) {
    if (!JsonRpc.isRequest(message)) {
      send(message);
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
    waiting.put(key(id), id);
    methods.put(key(id), method);
    send(message);
  }

  private void send(JsonNode message) {
    try {
      link.send(message);
    } catch (IOException e) {
      if (JsonRpc.isRequest(message)) {
        answer(message.get("id"), JsonRpc.SERVER_UNAVAILABLE, e.getMessage());
      }
    }
  }

  private void fromServer(JsonNode message) {
    if (JsonRpc.isResponse(message)) {
      String key = key(message.get("id"));
      waiting.remove(key);
      String method = methods.remove(key);
      if ("tools/list".equals(method) && pins != null && message.has("result")) {
        String change =
            ToolPins.change(pins, ToolPins.tools(message.path("result").path("tools")))
                .orElse(null);
        if (change != null) {
          if (heldReason == null) {
            heldReason = change;
            log.accept("plugin " + pluginId + " is held back: " + change);
            held.accept(change);
          }
          write(JsonRpc.error(message.get("id"), HELD_BACK, heldMessage()));
          return;
        }
      }
    }
    write(message);
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
    for (JsonNode id : List.copyOf(waiting.values())) {
      answer(id, JsonRpc.SERVER_UNAVAILABLE, reason);
    }
  }

  private void answer(JsonNode id, int code, String text) {
    methods.remove(key(id));
    if (waiting.remove(key(id)) != null) {
      write(JsonRpc.error(id, code, text));
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

  private static String key(JsonNode id) {
    return id.isString() ? "s:" + id.asString() : "n:" + id.toString();
  }
}
