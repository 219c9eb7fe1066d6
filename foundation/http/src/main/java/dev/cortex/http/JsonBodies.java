package dev.cortex.http;

import dev.cortex.base.Json;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** JSON request and response bodies of the Jetty core handlers. */
public final class JsonBodies {
  private JsonBodies() {}

  /** Answers {@code status} with {@code body} as JSON. */
  public static void send(Response response, Callback callback, int status, Object body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.write(
        true,
        java.nio.ByteBuffer.wrap((Json.write(body) + "\n").getBytes(StandardCharsets.UTF_8)),
        callback);
  }

  /** Answers {@code status} with {@code {"error":{"code","message"}}}. */
  public static void error(
      Response response, Callback callback, int status, String code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    send(response, callback, status, Map.of("error", error));
  }

  /**
   * Reads a request body of at most {@code maxBytes}, blocking the calling thread.
   *
   * @return the body, or null when it exceeds {@code maxBytes}
   */
  public static byte[] read(Request request, int maxBytes) throws Exception {
    long declared = request.getLength();
    if (declared > maxBytes) {
      return null;
    }
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    try (java.io.InputStream in = Content.Source.asInputStream(request)) {
      byte[] chunk = new byte[8192];
      for (int n = in.read(chunk); n != -1; n = in.read(chunk)) {
        if (body.size() + n > maxBytes) {
          return null;
        }
        body.write(chunk, 0, n);
      }
    }
    return body.toByteArray();
  }
}
