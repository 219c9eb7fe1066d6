package dev.cortex.mcp.transport;

import dev.cortex.base.Json;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** A JSON-RPC error as the body of an HTTP response: what the guard answers with. */
final class JsonRpcErrors {
  private JsonRpcErrors() {}

  static void write(
      HttpServletResponse response,
      int status,
      int code,
      String message,
      Object id,
      Map<String, Object> data)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    if (data != null) {
      error.put("data", data);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("jsonrpc", "2.0");
    body.put("id", id);
    body.put("error", error);
    response.getWriter().write(Json.write(body));
  }
}
