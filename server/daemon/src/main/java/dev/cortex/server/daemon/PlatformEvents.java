package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The route a chat platform posts its events to: not behind the webhook's token (its caller has
 * none), guarded by the platform's own signature, which the front door checks. A POST of at most
 * {@link #MAX_EVENT_BYTES} is handed over whole; a server without that front door answers 404.
 */
final class PlatformEvents {
  /** The largest request of a platform's taken. */
  static final int MAX_EVENT_BYTES = 1024 * 1024;

  /** A front door's answer to one request. */
  record Answer(int status, String body) {}

  /** Takes one request's body and headers; null when the front door is not running. */
  interface Taker {
    Answer take(byte[] body, HttpFields headers);
  }

  private PlatformEvents() {}

  /** The route of {@code platform}, whose requests {@code taker} answers. */
  static Handler handler(String platform, Taker taker) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"POST".equals(request.getMethod())) {
          notEnabled(response, callback, platform);
          return true;
        }
        byte[] body = JsonBodies.read(request, MAX_EVENT_BYTES);
        if (body == null) {
          JsonBodies.error(
              response, callback, 413, "INVALID_ARGUMENT", "The request body is too large.");
          return true;
        }
        Answer answer = taker.take(body, request.getHeaders());
        if (answer == null) {
          notEnabled(response, callback, platform);
          return true;
        }
        response.setStatus(answer.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        Content.Sink.write(response, true, answer.body(), callback);
        return true;
      }
    };
  }

  private static void notEnabled(Response response, Callback callback, String platform) {
    JsonBodies.error(
        response, callback, 404, "NOT_FOUND", platform + "'s events are not taken here.");
  }
}
