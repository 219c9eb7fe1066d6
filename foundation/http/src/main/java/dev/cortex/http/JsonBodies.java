package dev.cortex.http;

import dev.cortex.base.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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

  /**
   * How much of a body over its cap is still read (and thrown away) so that the sender, still
   * writing, hears the refusal instead of a reset connection: 8 MiB.
   */
  public static final int DISCARD_LIMIT = 8 * 1024 * 1024;

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
   * Answers an error before the request's body was read. A request that carries a body gets {@code
   * Connection: close} too: the unread rest would otherwise make the server drop the connection
   * after the answer, under a client that already chose it for its next request.
   */
  public static void refuse(
      Request request,
      Response response,
      Callback callback,
      int status,
      String code,
      String message) {
    if (request.getLength() != 0 && !"GET".equals(request.getMethod())) {
      response.getHeaders().put(HttpHeader.CONNECTION, "close");
    }
    error(response, callback, status, code, message);
  }

  /**
   * Reads a request body of at most {@code maxBytes}, blocking the calling thread. A body over the
   * cap is still read to its end, up to {@link #DISCARD_LIMIT} beyond the cap, and thrown away: a
   * sender that writes its whole body before it reads (no {@code Expect: 100-continue}) then hears
   * the refusal instead of a connection reset under it. One declared larger still is not read.
   *
   * @return the body, or null when it exceeds {@code maxBytes}
   */
  public static byte[] read(Request request, int maxBytes) throws Exception {
    long declared = request.getLength();
    if (declared > (long) maxBytes + DISCARD_LIMIT) {
      return null;
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      return read(in, declared, maxBytes);
    }
  }

  /**
   * Reads a body of at most {@code maxBytes} from {@code in} by the same rule as {@link
   * #read(Request, int)}, for handlers that see a stream (a servlet's).
   *
   * @param declared the body's Content-Length, or -1 when it has none
   * @return the body, or null when it exceeds {@code maxBytes}
   */
  public static byte[] read(InputStream in, long declared, int maxBytes) throws IOException {
    long readable = (long) maxBytes + DISCARD_LIMIT;
    if (declared > readable) {
      return null;
    }
    if (declared > maxBytes) {
      discard(in, readable);
      return null;
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] chunk = new byte[8192];
    for (int n = in.read(chunk); n != -1; n = in.read(chunk)) {
      if (body.size() + n > maxBytes) {
        discard(in, readable - body.size() - n);
        return null;
      }
      body.write(chunk, 0, n);
    }
    return body.toByteArray();
  }

  /** Reads and drops the rest of a body, at most {@code limit} bytes. */
  private static void discard(InputStream in, long limit) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    long left = limit;
    while (left > 0) {
      int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
      if (n == -1) {
        return;
      }
      left -= n;
    }
  }
}
