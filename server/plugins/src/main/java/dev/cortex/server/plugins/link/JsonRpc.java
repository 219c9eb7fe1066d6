package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The few things the links and the proxy read from a JSON-RPC message, and the errors they make.
 */
final class JsonRpc {
  /** The code of an error the proxy or a link answers for a server that could not. */
  static final int SERVER_UNAVAILABLE = -32000;

  private JsonRpc() {}

  /** A request: a method and an id (a notification has no id). */
  static boolean isRequest(JsonNode message) {
    return message.hasNonNull("method") && message.has("id") && !message.get("id").isNull();
  }

  /** A response: an id and a result or an error, no method. */
  static boolean isResponse(JsonNode message) {
    return !message.has("method")
        && message.has("id")
        && (message.has("result") || message.has("error"));
  }

  /** Whether two ids are the same: equal strings, or equal whole numbers. */
  static boolean sameId(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return false;
    }
    if (a.isString() && b.isString()) {
      return a.asString().equals(b.asString());
    }
    return a.isIntegralNumber()
        && b.isIntegralNumber()
        && a.canConvertToLong()
        && b.canConvertToLong()
        && a.longValue() == b.longValue();
  }

  static String method(JsonNode message) {
    return message.path("method").asString("");
  }

  /** An error response to the request with {@code id}. */
  static ObjectNode error(JsonNode id, int code, String text) {
    ObjectNode error = Json.mapper().createObjectNode();
    error.put("jsonrpc", "2.0");
    error.set("id", id);
    ObjectNode body = error.putObject("error");
    body.put("code", code);
    body.put("message", text);
    return error;
  }
}
