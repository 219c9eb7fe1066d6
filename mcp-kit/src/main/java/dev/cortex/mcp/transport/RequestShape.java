package dev.cortex.mcp.transport;

import java.util.Map;

/**
 * Checks the shape of request parameters the SDK would otherwise turn into internal errors that
 * name its classes (or, over HTTP, into an empty answer).
 */
final class RequestShape {
  private RequestShape() {}

  static final String TOOLS_CALL = "tools/call";

  /** Why {@code params} cannot be a {@code tools/call}, or null when they can. */
  static String toolsCallProblem(Object params) {
    if (!(params instanceof Map<?, ?> map)) {
      return "Invalid params: tools/call needs an object {\"name\": string, \"arguments\"?: object}.";
    }
    if (!(map.get("name") instanceof String name) || name.isEmpty()) {
      return "Invalid params: tools/call needs the tool's name as a string.";
    }
    Object arguments = map.get("arguments");
    if (arguments != null && !(arguments instanceof Map)) {
      return "Invalid params: the arguments of tools/call must be a JSON object.";
    }
    return null;
  }
}
