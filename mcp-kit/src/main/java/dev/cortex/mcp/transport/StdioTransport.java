package dev.cortex.mcp.transport;

import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.caller.RequestWithdrawal;
import dev.cortex.mcp.compose.StartupTrace;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over newline-delimited JSON-RPC on a pair of streams. Unlike the SDK's stdio transport it
 * answers a malformed line with a JSON-RPC error and keeps serving, refuses batches and over-long
 * lines, honours {@code notifications/cancelled} (the cancelled request's response and progress are
 * not written; its work runs on), and returns from {@link #serve()} as soon as the input ends.
 */
public final class StdioTransport implements McpServerTransportProvider, RequestWithdrawal {
  private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

  /** Default cap on one inbound line, in bytes. */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

  private static final long DRAIN_NANOS = 5_000_000_000L;

  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;
  private final McpJsonMapper mapper;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final InFlightRequests requests = new InFlightRequests();

  /** Requests sent to the client that may be withdrawn: marker to JSON-RPC id. */
  private final Map<String, Object> withdrawable = new ConcurrentHashMap<>();

  private volatile McpServerSession session;
  private volatile boolean traced;
  private volatile boolean initializeSeen;
  private volatile Collection<String> tools;

  public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLineBytes) {
    this.mapper = Objects.requireNonNull(mapper);
    this.in = Objects.requireNonNull(in);
    this.out = Objects.requireNonNull(out);
    if (maxLineBytes <= 0) {
      throw new IllegalArgumentException("maxLineBytes must be positive");
    }
    this.maxLineBytes = maxLineBytes;
  }

  /** How the server's tool calls hear that this transport's client cancelled them. */
  public CancelSignals cancelSignals() {
    return (session, requestId) -> requests.cancellation(requestId);
  }

  /**
   * The tools the server serves: a {@code tools/call} of any other is answered here as MCP says,
   * with invalid params naming the tools there are. Without it the server answers those itself.
   */
  public StdioTransport servingTools(Collection<String> names) {
    this.tools = List.copyOf(names);
    return this;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    this.session = factory.create(new SessionTransport());
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return notifyClients(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> closed.set(true));
  }

  /** Tells the client that the request which carried {@code marker} is withdrawn. */
  @Override
  public void withdraw(String marker, String reason) {
    Object id = withdrawable.remove(marker);
    if (id == null) {
      return;
    }
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("requestId", id);
    params.put("reason", reason);
    Map<String, Object> notification = new LinkedHashMap<>();
    notification.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    notification.put("method", InFlightRequests.CANCELLED);
    notification.put("params", params);
    try {
      write(mapper.writeValueAsString(notification));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Remembers the id of an outgoing request that carries a withdrawal marker. */
  private void rememberWithdrawable(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request
        && request.params() instanceof McpSchema.Request params
        && params.meta() != null
        && params.meta().get(RequestWithdrawal.META_KEY) instanceof String marker) {
      withdrawable.put(marker, request.id());
    }
  }

  /**
   * Reads and dispatches messages until the input ends or fails, then closes the session. Blocks
   * the calling thread.
   */
  public void serve() {
    if (session == null) {
      throw new IllegalStateException("no session: build the server on this transport first");
    }
    try {
      LineReader reader = new LineReader(in, maxLineBytes);
      boolean first = true;
      while (!closed.get()) {
        LineReader.Line line = reader.next();
        if (line == null) {
          break;
        }
        if (line.oversized()) {
          reply(
              null,
              McpSchema.ErrorCodes.INVALID_REQUEST,
              "Message exceeds the limit of "
                  + maxLineBytes
                  + " bytes per line; it was discarded.");
          continue;
        }
        if (first) {
          StartupTrace.mark("first line read");
          first = false;
        }
        dispatch(line.text());
      }
    } catch (IOException e) {
      log.debug("stdin closed", e);
    } finally {
      drain();
      closed.set(true);
      try {
        session.closeGracefully().block(Duration.ofSeconds(2));
      } catch (RuntimeException e) {
        log.debug("session close", e);
      }
    }
  }

  /** Gives requests still running when the input ended a moment to deliver their answers. */
  private void drain() {
    log.debug("input ended with {} request(s) in flight", requests.size());
    try {
      requests.awaitEmpty(DRAIN_NANOS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void dispatch(String text) {
    String trimmed = text.strip();
    if (trimmed.isEmpty()) {
      return;
    }
    if (trimmed.charAt(0) == '[') {
      reply(
          null,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "JSON-RPC batches are not supported; send one message per line.");
      return;
    }
    Object value;
    try {
      value = mapper.readValue(trimmed, Object.class);
    } catch (IOException | RuntimeException e) {
      reply(null, McpSchema.ErrorCodes.PARSE_ERROR, "Parse error: the line is not JSON.");
      return;
    }
    Object checked = Inbound.check(value);
    if (checked instanceof Inbound.Problem problem) {
      reply(problem);
      return;
    }
    Inbound.Message inbound = (Inbound.Message) checked;
    if (inbound.kind() == Inbound.Kind.REQUEST) {
      Inbound.Problem problem = Inbound.problem(inbound, initializeSeen, tools);
      if (problem != null) {
        reply(problem);
        return;
      }
      if (!initializeSeen && Inbound.PING.equals(inbound.method())) {
        // Before initialize the SDK answers nothing; a ping is allowed at any time.
        answer(inbound.id(), Map.of());
        return;
      }
      if (Inbound.INITIALIZE.equals(inbound.method())) {
        initializeSeen = true;
      }
      if (RequestShape.TOOLS_CALL.equals(inbound.method())) {
        InFlightRequests.markCall(inbound);
      }
    } else if (inbound.kind() == Inbound.Kind.NOTIFICATION
        && InFlightRequests.CANCELLED.equals(inbound.method())) {
      // Handled here only: the SDK has no handler for it and would log a warning.
      Object id = inbound.params() instanceof Map<?, ?> params ? params.get("requestId") : null;
      if (requests.cancel(id)) {
        log.debug("request {} cancelled by the client", id);
      }
      return;
    }
    McpSchema.JSONRPCMessage message;
    try {
      message = toSdk(inbound);
    } catch (RuntimeException e) {
      reply(
          inbound.kind() == Inbound.Kind.REQUEST ? inbound.id() : null,
          McpSchema.ErrorCodes.INVALID_REQUEST,
          "Invalid Request: the message's fields do not have their JSON-RPC types.");
      return;
    }
    if (message instanceof McpSchema.JSONRPCResponse response && !withdrawable.isEmpty()) {
      withdrawable.values().remove(response.id());
    }
    if (message instanceof McpSchema.JSONRPCRequest request) {
      requests.start(request.id(), request.method(), progressToken(request.params()));
    }
    session
        .handle(message)
        .subscribe(null, e -> log.warn("message handling failed: {}", e.toString()));
  }

  private McpSchema.JSONRPCMessage toSdk(Inbound.Message message) {
    Class<? extends McpSchema.JSONRPCMessage> type =
        switch (message.kind()) {
          case REQUEST -> McpSchema.JSONRPCRequest.class;
          case NOTIFICATION -> McpSchema.JSONRPCNotification.class;
          case RESPONSE -> McpSchema.JSONRPCResponse.class;
        };
    return mapper.convertValue(message.fields(), type);
  }

  private static Object progressToken(Object params) {
    return params instanceof Map<?, ?> map && map.get("_meta") instanceof Map<?, ?> meta
        ? meta.get("progressToken")
        : null;
  }

  /** Whether {@code message} must not be written: it answers or reports on a cancelled request. */
  private boolean silenced(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCResponse response) {
      return requests.isCancelled(response.id());
    }
    if (message instanceof McpSchema.JSONRPCNotification notification
        && McpSchema.METHOD_NOTIFICATION_PROGRESS.equals(notification.method())) {
      Object params = notification.params();
      Object token =
          params instanceof McpSchema.ProgressNotification progress
              ? progress.progressToken()
              : params instanceof Map<?, ?> map ? map.get("progressToken") : null;
      return requests.isProgressOfCancelled(token);
    }
    return false;
  }

  private void reply(Inbound.Problem problem) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", problem.code());
    error.put("message", problem.message());
    if (problem.data() != null) {
      error.put("data", problem.data());
    }
    respond(problem.id(), "error", error);
  }

  private void answer(Object id, Object result) {
    respond(id, "result", result);
  }

  private void respond(Object id, String field, Object value) {
    Map<String, Object> response = new LinkedHashMap<>();
    response.put("jsonrpc", McpSchema.JSONRPC_VERSION);
    response.put("id", id);
    response.put(field, value);
    try {
      write(mapper.writeValueAsString(response));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void reply(Object id, int code, String message) {
    reply(new Inbound.Problem(code, message, id));
  }

  private void write(String json) {
    byte[] bytes =
        (json.replace("\r", "\\r").replace("\n", "\\n") + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        if (!closed.get()) {
          log.debug("stdout closed", e);
        }
        closed.set(true);
      }
    }
  }

  /**
   * Internal errors from the SDK carry exception messages naming its classes: log them, send a
   * plain sentence.
   */
  private static McpSchema.JSONRPCMessage withoutInternals(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCResponse response
        && response.error() != null
        && response.error().code() == McpSchema.ErrorCodes.INTERNAL_ERROR) {
      log.warn(
          "internal error answered to request {}: {}", response.id(), response.error().message());
      return new McpSchema.JSONRPCResponse(
          response.jsonrpc(),
          response.id(),
          null,
          new McpSchema.JSONRPCResponse.JSONRPCError(
              McpSchema.ErrorCodes.INTERNAL_ERROR,
              "Internal error; the server's log (stderr) has the details.",
              null));
    }
    return message;
  }

  /**
   * What the log may say of a message: its kind, method and id, and its size. Never its params,
   * result or error, which may carry a file's contents or a secret.
   */
  static String summary(McpSchema.JSONRPCMessage message, String json) {
    int size = json.getBytes(StandardCharsets.UTF_8).length;
    if (message instanceof McpSchema.JSONRPCRequest request) {
      return "request " + request.method() + " id " + request.id() + ", " + size + " bytes";
    }
    if (message instanceof McpSchema.JSONRPCNotification notification) {
      return "notification " + notification.method() + ", " + size + " bytes";
    }
    if (message instanceof McpSchema.JSONRPCResponse response) {
      return (response.error() == null ? "response" : "error response")
          + " id "
          + response.id()
          + ", "
          + size
          + " bytes";
    }
    return "message, " + size + " bytes";
  }

  private final class SessionTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(
          () -> {
            try {
              rememberWithdrawable(message);
              if (silenced(message)) {
                if (log.isDebugEnabled()) {
                  log.debug(
                      "not sending a message of a cancelled request: {}",
                      summary(message, mapper.writeValueAsString(message)));
                }
              } else {
                write(mapper.writeValueAsString(withoutInternals(message)));
              }
              if (message instanceof McpSchema.JSONRPCResponse response) {
                if (!traced) {
                  traced = true;
                  StartupTrace.mark("first response written");
                }
                requests.finish(response.id());
              }
            } catch (IOException e) {
              throw new McpError(
                  new McpSchema.JSONRPCResponse.JSONRPCError(
                      McpSchema.ErrorCodes.INTERNAL_ERROR, "cannot serialise message", null));
            }
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> closed.set(true));
    }
  }

  /** Splits a byte stream into UTF-8 lines, discarding the rest of any line over the cap. */
  static final class LineReader {
    record Line(String text, boolean oversized) {}

    private final InputStream in;
    private final int max;
    private final byte[] buffer = new byte[64 * 1024];
    private int pos;
    private int limit;

    LineReader(InputStream in, int max) {
      this.in = in;
      this.max = max;
    }

    /** The next line, or null at the end of input. */
    Line next() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      boolean oversized = false;
      boolean any = false;
      while (true) {
        if (pos == limit) {
          limit = in.read(buffer);
          pos = 0;
          if (limit <= 0) {
            limit = 0;
            return any ? finish(line, oversized) : null;
          }
        }
        any = true;
        int start = pos;
        while (pos < limit && buffer[pos] != '\n') {
          pos++;
        }
        int length = pos - start;
        if (!oversized) {
          if (line.size() + length > max) {
            oversized = true;
            line.reset();
          } else {
            line.write(buffer, start, length);
          }
        }
        if (pos < limit) {
          pos++;
          return finish(line, oversized);
        }
      }
    }

    private static Line finish(ByteArrayOutputStream line, boolean oversized) {
      if (oversized) {
        return new Line(null, true);
      }
      String text = line.toString(StandardCharsets.UTF_8);
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      return new Line(text, false);
    }
  }
}
