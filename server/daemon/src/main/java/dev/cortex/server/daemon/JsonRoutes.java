package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The plumbing of the webhook's JSON routes: POST only, the caller's protocol version checked
 * first, bodies read up to a cap and bound to records, and answers as JSON lines (events, then one
 * {@code result} or {@code error}) that the webhook client reads as they come.
 */
final class JsonRoutes {
  static final int MAX_BODY = 64 * 1024 * 1024;

  private final String version;

  JsonRoutes(String version) {
    this.version = version;
  }

  /** A route handler: the request's body (already checked) to an answer. */
  @FunctionalInterface
  interface Route {
    void handle(byte[] body, Request request, Response response, Callback callback)
        throws Exception;
  }

  /** A POST route behind the protocol check and the body cap. */
  Handler post(Route route) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"POST".equals(request.getMethod())) {
          JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use POST.");
          return true;
        }
        if (!protocolMatches(request, response, callback)) {
          return true;
        }
        byte[] body = JsonBodies.read(request, MAX_BODY);
        if (body == null) {
          JsonBodies.error(
              response, callback, 413, "INVALID_ARGUMENT", "The request body is too large.");
          return true;
        }
        route.handle(body, request, response, callback);
        return true;
      }
    };
  }

  boolean protocolMatches(Request request, Response response, Callback callback) {
    String given = request.getHeaders().get(Webhook.PROTOCOL_HEADER);
    if (given == null || given.strip().equals(Integer.toString(Webhook.PROTOCOL))) {
      return true;
    }
    JsonBodies.error(
        response,
        callback,
        409,
        "PROTOCOL_MISMATCH",
        "The agent server (cortex "
            + version
            + ") speaks webhook protocol "
            + Webhook.PROTOCOL
            + "; the caller speaks '"
            + given.strip()
            + "'.");
    return false;
  }

  /** The body bound to {@code type}, or null when it does not bind. */
  static <T> T bind(byte[] body, Class<T> type) {
    try {
      return WireJson.mapper().readValue(body, type);
    } catch (JacksonException | NullPointerException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The body bound to {@code type}, refusing any field {@code type} does not have: the webhook's
   * one rule for strict routes (the session API's).
   *
   * @throws UnknownField naming the first such field
   * @throws JacksonException when the body does not bind for another reason
   */
  static <T> T strict(byte[] body, Class<T> type) {
    try {
      return WireJson.mapper()
          .readerFor(type)
          .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .readValue(body);
    } catch (UnrecognizedPropertyException e) {
      throw new UnknownField(e.getPropertyName(), e.getKnownPropertyIds());
    }
  }

  /** A request field its route does not have (a misspelling, say): {@code INVALID_ARGUMENT}. */
  static final class UnknownField extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownField(String field, Collection<Object> known) {
      super(
          "The request has an unknown field '"
              + field
              + "'; its fields are "
              + String.join(", ", new TreeSet<>(known.stream().map(String::valueOf).toList()))
              + ".");
    }
  }

  /** Answers one {@code result} line. */
  static void result(Response response, Callback callback, Object result) {
    JsonBodies.send(response, callback, 200, Map.of("result", result));
  }

  /** Starts a streamed answer: JSON lines written as they come. */
  static Lines stream(Response response) {
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-ndjson; charset=utf-8");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    return new Lines(Content.Sink.asOutputStream(response));
  }

  /** The JSON lines of one streamed answer; a caller that went away makes later writes no-ops. */
  static final class Lines implements AutoCloseable {
    private final OutputStream out;
    private boolean failed;

    Lines(OutputStream out) {
      this.out = out;
    }

    /** Writes a line; false once the caller has gone away. */
    synchronized boolean write(Object line) {
      if (failed) {
        return false;
      }
      try {
        out.write(
            (WireJson.mapper().writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        return true;
      } catch (IOException e) {
        failed = true;
        return false;
      }
    }

    synchronized boolean failed() {
      return failed;
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
