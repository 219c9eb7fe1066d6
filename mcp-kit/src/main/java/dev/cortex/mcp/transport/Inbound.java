package dev.cortex.mcp.transport;

import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * A message from a client, checked as JSON-RPC 2.0 and MCP 2025-11-25 require before the SDK sees
 * it, the same way on every transport: what is no JSON-RPC 2.0 message is an invalid request
 * (answered with its id when it has a usable one, else with a null id, notifications included);
 * malformed {@code tools/call} params, unknown tools and pagination cursors (Cortex gives none:
 * every list comes whole) are invalid params; so is any request but {@code initialize} and {@code
 * ping} before {@code initialize}.
 */
final class Inbound {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int INVALID_PARAMS = -32602;

  static final String INITIALIZE = "initialize";
  static final String PING = "ping";
  private static final Set<String> LISTS =
      Set.of("tools/list", "prompts/list", "resources/list", "resources/templates/list");

  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE
  }

  /**
   * Why a message is refused: the JSON-RPC error to answer, with the request's id, or null when it
   * has none that can be answered to.
   */
  record Problem(int code, String message, Object id, Map<String, Object> data) {
    Problem(int code, String message, Object id) {
      this(code, message, id, null);
    }
  }

  /** A well-formed message: its kind, and for requests and notifications the method and params. */
  record Message(Kind kind, Map<?, ?> fields, Object id, String method, Object params) {}

  private Inbound() {}

  /** The parsed value as a message, or the problem that makes it none. */
  static Object check(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return new Problem(
          INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object.", null);
    }
    Object id = map.get("id");
    Object answerable = validId(id) ? id : null;
    if (!"2.0".equals(map.get("jsonrpc"))) {
      return new Problem(
          INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be exactly \"2.0\".", answerable);
    }
    if (map.containsKey("id") && !validId(id)) {
      return new Problem(
          INVALID_REQUEST, "Invalid Request: an id is a string or an integer, and not null.", null);
    }
    if (map.containsKey("method")) {
      if (!(map.get("method") instanceof String method)) {
        return new Problem(
            INVALID_REQUEST, "Invalid Request: \"method\" must be a string.", answerable);
      }
      Object params = map.get("params");
      if (params instanceof java.util.List) {
        return new Problem(
            INVALID_PARAMS, "Invalid params: MCP takes \"params\" as an object.", answerable);
      }
      if (params != null && !(params instanceof Map)) {
        return new Problem(
            INVALID_REQUEST,
            "Invalid Request: \"params\" must be a structured value (an object).",
            answerable);
      }
      return new Message(
          map.containsKey("id") ? Kind.REQUEST : Kind.NOTIFICATION, map, id, method, params);
    }
    boolean result = map.containsKey("result");
    boolean error = map.containsKey("error");
    if (!map.containsKey("id") || result == error) {
      return new Problem(
          INVALID_REQUEST,
          "Invalid Request: a message needs a string \"method\", or an \"id\" with exactly one of"
              + " \"result\" and \"error\".",
          answerable);
    }
    return new Message(Kind.RESPONSE, map, id, null, null);
  }

  /**
   * What MCP refuses in a well-formed request: anything but initialize and ping before initialize,
   * a malformed or unknown {@code tools/call}, a cursor on a list. {@code tools} null leaves tool
   * names to the server.
   */
  static Problem problem(Message message, boolean initialized, Collection<String> tools) {
    if (message.kind() != Kind.REQUEST) {
      return null;
    }
    String method = message.method();
    if (!initialized && !INITIALIZE.equals(method) && !PING.equals(method)) {
      return new Problem(
          INVALID_REQUEST,
          "Server not initialized: the first request must be initialize.",
          message.id());
    }
    if (RequestShape.TOOLS_CALL.equals(method)) {
      String shape = RequestShape.toolsCallProblem(message.params());
      if (shape != null) {
        return new Problem(INVALID_PARAMS, shape, message.id());
      }
      String name = (String) ((Map<?, ?>) message.params()).get("name");
      if (tools != null && !tools.contains(name)) {
        return new Problem(
            INVALID_PARAMS,
            "Unknown tool '"
                + name
                + "' (UNKNOWN_TOOL): this server serves "
                + (tools.isEmpty() ? "no tools" : String.join(", ", tools))
                + ".",
            message.id(),
            Map.of("code", "UNKNOWN_TOOL", "tool", name));
      }
    }
    if (LISTS.contains(method)
        && message.params() instanceof Map<?, ?> params
        && params.get("cursor") != null) {
      return new Problem(
          INVALID_PARAMS,
          "Invalid params: cursor "
              + params.get("cursor")
              + " was not given by this server; it returns every list whole, without cursors.",
          message.id());
    }
    return null;
  }

  /** MCP ids: a string, or an integer. */
  static boolean validId(Object id) {
    return id instanceof String
        || id instanceof Integer
        || id instanceof Long
        || id instanceof java.math.BigInteger;
  }
}
