package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Asks a plugin server what tools it offers, as a client would: {@code initialize}, {@code
 * notifications/initialized}, then {@code tools/list} page by page. Used when a person confirms a
 * plugin, so that the tools they saw are the ones pinned.
 */
public final class PluginProbe {
  /** The most pages of tools read. */
  static final int MAX_PAGES = 50;

  private PluginProbe() {}

  /** The tools {@code link}'s server lists, each step within {@code limit}; the link is closed. */
  public static List<ToolPins.Tool> tools(PluginLink link, Duration limit) throws IOException {
    ConcurrentHashMap<String, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
    CompletableFuture<String> ended = new CompletableFuture<>();
    try (link) {
      link.start(
          message -> {
            if (JsonRpc.isResponse(message)) {
              CompletableFuture<JsonNode> answer = waiting.remove(message.get("id").asString(""));
              if (answer != null) {
                answer.complete(message);
              }
            }
          },
          ended::complete);
      ObjectNode init = Json.mapper().createObjectNode();
      init.put("protocolVersion", "2025-06-18");
      init.putObject("capabilities");
      init.putObject("clientInfo").put("name", "cortex-plugins").put("version", "1");
      call(link, waiting, ended, "1", "initialize", init, limit);
      ObjectNode initialized = Json.mapper().createObjectNode();
      initialized.put("jsonrpc", "2.0");
      initialized.put("method", "notifications/initialized");
      link.send(initialized);
      List<ToolPins.Tool> tools = new ArrayList<>();
      String cursor = null;
      for (int page = 0; page < MAX_PAGES; page++) {
        ObjectNode params = Json.mapper().createObjectNode();
        if (cursor != null) {
          params.put("cursor", cursor);
        }
        JsonNode result =
            call(link, waiting, ended, Integer.toString(page + 2), "tools/list", params, limit);
        tools.addAll(ToolPins.tools(result.path("tools")));
        cursor = result.path("nextCursor").asString(null);
        if (cursor == null || cursor.isEmpty()) {
          return tools;
        }
      }
      throw new PluginLink.LinkFailure("it lists more than " + MAX_PAGES + " pages of tools");
    }
  }

  private static JsonNode call(
      PluginLink link,
      ConcurrentHashMap<String, CompletableFuture<JsonNode>> waiting,
      CompletableFuture<String> ended,
      String id,
      String method,
      ObjectNode params,
      Duration limit)
      throws IOException {
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    waiting.put(id, answer);
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("jsonrpc", "2.0");
    request.put("id", id);
    request.put("method", method);
    request.set("params", params);
    link.send(request);
    Object first;
    try {
      first = CompletableFuture.anyOf(answer, ended).get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new PluginLink.LinkFailure("it did not answer " + method + " in time");
    } catch (ExecutionException e) {
      throw new PluginLink.LinkFailure("it did not answer " + method);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PluginLink.LinkFailure("interrupted");
    }
    if (first instanceof String reason) {
      throw new PluginLink.LinkFailure(reason);
    }
    JsonNode response = (JsonNode) first;
    if (response.has("error")) {
      throw new PluginLink.LinkFailure(
          "it answered " + method + " with error " + response.path("error").path("code").asInt());
    }
    return response.path("result");
  }
}
