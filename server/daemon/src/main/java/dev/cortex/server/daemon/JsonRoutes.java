package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The plumbing of the webhook's JSON routes: POST only, the caller's protocol version checked
 * first, bodies read up to a cap and bound to records by one strict rule (an unknown field is
 * refused by name), and answers as JSON lines (events, then one {@code result} or {@code error})
 * that the webhook client reads as they come.
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
          JsonBodies.refuse(request, response, callback, 405, "METHOD_NOT_ALLOWED", "Use POST.");
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
    JsonBodies.refuse(
        request,
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

  /**
   * A body read by the rule of every HTTP body of the agent server ({@link #strict}): its value, or
   * why it cannot be taken.
   */
  record Parsed<T>(T value, String problem, RuntimeException failure) {
    Parsed(T value, String problem) {
      this(value, problem, null);
    }
  }

  /**
   * The one rule for the bodies of the webhook's and the hub's HTTP routes: one JSON value of the
   * protocol and nothing after it, bound to {@code type}, whose every field is one of the record's
   * and given once. An unknown field is refused by name, so that a misspelt field is never silently
   * dropped, and so is a field given twice (which value would count?). (The hub's WebSocket
   * messages keep tolerating unknown fields: a v1 peer tolerates additions.)
   *
   * @return the value; or, with a null value, the sentence of an unknown or repeated field or of
   *     more after the value, or a null problem when the body does not bind at all
   */
  static <T> Parsed<T> strict(byte[] body, Class<T> type) {
    try {
      T value =
          WireJson.mapper()
              .readerFor(type)
              .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
              .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
              .readValue(body);
      return new Parsed<>(value, null);
    } catch (UnrecognizedPropertyException e) {
      return new Parsed<>(null, unknownField(e), e);
    } catch (JacksonException e) {
      return new Parsed<>(null, malformed(e), e);
    } catch (NullPointerException | IllegalArgumentException e) {
      return new Parsed<>(null, null, e);
    }
  }

  private static final Pattern DUPLICATE = Pattern.compile("Duplicate Object property \"(.*)\"");

  /** The sentence of a field given twice or of more after the body; null for any other fault. */
  private static String malformed(JacksonException e) {
    String message = String.valueOf(e.getOriginalMessage());
    Matcher duplicate = DUPLICATE.matcher(message);
    if (duplicate.lookingAt() && duplicate.group(1).length() <= 100) {
      return "The request has the field '" + duplicate.group(1) + "' twice.";
    }
    if (message.startsWith("Trailing token")) {
      return "The request has more than one JSON value.";
    }
    return null;
  }

  /** The sentence of an unknown field: its place in the body, and the fields allowed there. */
  private static String unknownField(UnrecognizedPropertyException e) {
    return "The request has an unknown field '"
        + path(e)
        + "'; its fields are "
        + String.join(
            ", ", new TreeSet<>(e.getKnownPropertyIds().stream().map(String::valueOf).toList()))
        + ".";
  }

  /** The unknown field's place, e.g. {@code surprise} or {@code params.surprise}. */
  private static String path(UnrecognizedPropertyException e) {
    String path = WireJson.field(e);
    return path.isEmpty() ? e.getPropertyName() : path;
  }

  /**
   * The body bound to {@code type} by {@link #strict}, or null once the request is answered 400
   * {@code INVALID_ARGUMENT}: naming the unknown field, else with {@code usage}.
   */
  static <T> T read(
      byte[] body, Class<T> type, String usage, Response response, Callback callback) {
    Parsed<T> parsed = strict(body, type);
    if (parsed.value() != null) {
      return parsed.value();
    }
    invalid(response, callback, parsed.problem() == null ? usage : parsed.problem() + " " + usage);
    return null;
  }

  /**
   * The body bound to {@code type}, or null once the request is answered 400 {@code
   * INVALID_ARGUMENT}: naming a field the request may not have, or with the rule a record's
   * constructor says it breaks ({@link Sessions.BadRequest}), else with {@code usage}.
   */
  static <T> T record(
      byte[] body, Class<T> type, String usage, Response response, Callback callback) {
    Parsed<T> parsed = strict(body, type);
    if (parsed.value() != null) {
      return parsed.value();
    }
    if (parsed.problem() != null) {
      invalid(response, callback, parsed.problem());
      return null;
    }
    for (Throwable cause = parsed.failure(); cause != null; cause = cause.getCause()) {
      if (cause instanceof Sessions.BadRequest broken) {
        invalid(response, callback, broken.getMessage());
        return null;
      }
    }
    invalid(response, callback, usage);
    return null;
  }

  /**
   * A POST route that binds its body to {@code type} ({@link #record}) and answers what {@code
   * work} returns; a {@link CodedException} it throws is answered with its code, at the status
   * {@code statuses} gives that code.
   */
  <T> Handler coded(
      Class<T> type,
      String usage,
      java.util.function.Function<T, Object> work,
      java.util.function.ToIntFunction<String> statuses) {
    return post(
        (body, request, response, callback) -> {
          T value = record(body, type, usage, response, callback);
          if (value != null) {
            answer(response, callback, () -> work.apply(value), statuses);
          }
        });
  }

  /**
   * Answers what {@code work} returns; a {@link CodedException} it throws with its code, at the
   * status {@code statuses} gives that code.
   */
  static void answer(
      Response response,
      Callback callback,
      java.util.function.Supplier<Object> work,
      java.util.function.ToIntFunction<String> statuses) {
    Object answer;
    try {
      answer = work.get();
    } catch (CodedException e) {
      JsonBodies.error(response, callback, statuses.applyAsInt(e.code()), e.code(), e.getMessage());
      return;
    }
    result(response, callback, answer);
  }

  /** Answers 400 {@code INVALID_ARGUMENT} with {@code message}. */
  static void invalid(Response response, Callback callback, String message) {
    JsonBodies.error(response, callback, 400, "INVALID_ARGUMENT", message);
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
    return new Lines(response);
  }

  /**
   * The JSON lines of one streamed answer, each sent as it is written; a caller that went away
   * makes later writes no-ops. The answer's last line goes with its end ({@link #last}), in one
   * write: an answer of a single line then has a length and no chunks.
   */
  static final class Lines implements AutoCloseable {
    /** Where the lines go: a write, and whether it is the answer's last. */
    @FunctionalInterface
    interface Sink {
      void write(boolean last, ByteBuffer bytes) throws IOException;
    }

    private final Sink sink;
    private boolean failed;
    private boolean ended;

    Lines(Response response) {
      this(
          (last, bytes) -> {
            try (Blocker.Callback written = Blocker.callback()) {
              response.write(last, bytes, written);
              written.block();
            }
          });
    }

    /** Lines written to {@code out} (the end is not written: the stream is the caller's). */
    Lines(java.io.OutputStream out) {
      this(
          (last, bytes) -> {
            if (bytes.hasRemaining()) {
              out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            }
          });
    }

    private Lines(Sink sink) {
      this.sink = sink;
    }

    /** Writes a line; false once the caller has gone away. */
    synchronized boolean write(Object line) {
      return send(false, line);
    }

    /** Writes the answer's last line and ends it; false once the caller has gone away. */
    synchronized boolean last(Object line) {
      return send(true, line);
    }

    private boolean send(boolean last, Object line) {
      if (failed || ended) {
        return false;
      }
      ended = last;
      byte[] bytes =
          (WireJson.mapper().writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
      try {
        sink.write(last, ByteBuffer.wrap(bytes));
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
    public synchronized void close() throws IOException {
      if (ended || failed) {
        return;
      }
      ended = true;
      sink.write(true, ByteBuffer.allocate(0));
    }
  }
}
