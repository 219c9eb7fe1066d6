package dev.cortex.mcp.transport;

import dev.cortex.base.Json;
import dev.cortex.http.JsonBodies;
import dev.cortex.http.RequestGuard;
import dev.cortex.mcp.caller.CancelSignals;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checks in front of the MCP endpoint: a Host and Origin allowlist against DNS rebinding (403),
 * the bearer token when one is configured (401), a supported {@code MCP-Protocol-Version} (400), a
 * cap on the body (413), no JSON-RPC batches, and messages that are JSON-RPC 2.0 (400 with -32700
 * or -32600); requests MCP refuses (unknown tools, cursors, malformed {@code tools/call}) get their
 * JSON-RPC error here. Sessions expire when idle and are capped in number ({@link HttpSessions});
 * every SSE event gets an id of its own. It also carries out {@code notifications/cancelled}: see
 * {@link HttpCancellation}.
 */
final class HttpGuard implements Filter {
  private static final Logger log = LoggerFactory.getLogger(HttpGuard.class);

  /** The versions a client may name in {@code MCP-Protocol-Version}. */
  static final Set<String> PROTOCOL_VERSIONS =
      Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

  static final String PROTOCOL_HEADER = "MCP-Protocol-Version";

  private final HttpServe.Options options;
  private final Collection<String> tools;
  private final HttpSessions sessions;
  private final Clock clock;
  private volatile RequestGuard access;
  private final HttpCancellation cancellation = new HttpCancellation();
  private final AtomicLong eventIds = new AtomicLong();
  private volatile Instant lastSweep = Instant.EPOCH;

  HttpGuard(HttpServe.Options options, Collection<String> tools, Clock clock) {
    this.options = options;
    this.tools = tools == null ? null : List.copyOf(tools);
    this.clock = clock;
    this.sessions = new HttpSessions(options.sessions(), clock);
  }

  /** How the server's tool calls hear that their client cancelled them. */
  CancelSignals cancelSignals() {
    return cancellation;
  }

  /** Completes the allowlists once the real port is known. */
  void portBound(int port) {
    Set<String> hosts = new HashSet<>(RequestGuard.hostsFor(options.bind(), port));
    Set<String> origins = new HashSet<>(RequestGuard.originsFor(hosts));
    for (String extra : options.extraHosts()) {
      hosts.add(extra);
      if (!extra.contains(":") || extra.startsWith("[")) {
        hosts.add(extra + ":" + port);
      }
    }
    origins.addAll(options.extraOrigins());
    RequestGuard.Builder guard = RequestGuard.builder().hosts(hosts).origins(origins);
    if (options.token() != null) {
      guard.token(
          RequestGuard.TokenHeader.authorizationBearer(),
          RequestGuard.TokenCheck.equalTo(options.token()));
    }
    this.access = guard.build();
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletResponse response = (HttpServletResponse) res;
    try {
      guard((HttpServletRequest) req, response, chain);
    } catch (IOException | ServletException | RuntimeException e) {
      log.warn("HTTP request failed", e);
      if (!response.isCommitted()) {
        response.reset();
        writeError(
            response,
            500,
            -32603,
            "Internal error; the server's log (stderr) has the details.",
            null);
      }
    }
  }

  private void guard(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    RequestGuard.Refusal refusal = access.check(request::getHeader, request.getQueryString());
    if (refusal != null) {
      if (refusal.status() == 401) {
        response.setHeader("WWW-Authenticate", "Bearer");
      }
      refuse(response, refusal.status(), refusal.message());
      return;
    }
    String version = request.getHeader(PROTOCOL_HEADER);
    if (version != null && !PROTOCOL_VERSIONS.contains(version.strip())) {
      refuse(
          response,
          400,
          "Unsupported "
              + PROTOCOL_HEADER
              + " '"
              + version
              + "'; this server speaks "
              + String.join(", ", new java.util.TreeSet<>(PROTOCOL_VERSIONS))
              + ".");
      return;
    }
    closeExpired(request, response, chain);
    String session = request.getHeader(HttpCancellation.SESSION_HEADER);
    if (session != null && !sessions.begin(session)) {
      refuse(
          response,
          404,
          "Session not found or expired: send initialize (without Mcp-Session-Id) to start a new"
              + " one.");
      return;
    }
    try {
      if ("POST".equals(request.getMethod())) {
        post(request, response, chain, session);
      } else {
        ErrorBodies errors = new ErrorBodies(response, null);
        chain.doFilter(request, new EventIds(errors, eventIds));
        errors.finish();
        if ("DELETE".equals(request.getMethod()) && session != null) {
          sessions.closed(session);
        }
      }
    } finally {
      if (session != null) {
        if (request.isAsyncStarted()) {
          // A stream held open past this call (a GET listening for the server's messages).
          request.getAsyncContext().addListener(new SessionEnd(sessions, session));
        } else {
          sessions.end(session);
        }
      }
    }
  }

  private void post(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain, String session)
      throws IOException, ServletException {
    byte[] body =
        JsonBodies.read(
            request.getInputStream(), request.getContentLengthLong(), options.maxBodyBytes());
    if (body == null) {
      refuse(response, 413, "Request body exceeds " + options.maxBodyBytes() + " bytes.");
      return;
    }
    if (firstNonSpace(body) == '[') {
      refuse(response, 400, "JSON-RPC batches are not supported; send one message per request.");
      return;
    }
    Object value;
    try {
      value = Json.mapper().readValue(body, Object.class);
    } catch (RuntimeException e) {
      writeError(response, 400, Inbound.PARSE_ERROR, "Parse error: the body is not JSON.", null);
      return;
    }
    Object checked = Inbound.check(value);
    if (checked instanceof Inbound.Problem problem) {
      writeProblem(response, 400, problem);
      return;
    }
    Inbound.Message message = (Inbound.Message) checked;
    boolean initialize =
        message.kind() == Inbound.Kind.REQUEST && Inbound.INITIALIZE.equals(message.method());
    if (session == null && !initialize) {
      refuse(
          response,
          400,
          "An Mcp-Session-Id header is required: start a session with initialize first.");
      return;
    }
    Inbound.Problem problem = Inbound.problem(message, true, tools);
    if (problem != null) {
      // A well-formed request refused as MCP says: a JSON-RPC error answer, as its result would be.
      writeProblem(response, 200, problem);
      return;
    }
    if (initialize && !makeRoom(request, response, chain)) {
      response.setHeader("Retry-After", "5");
      refuse(
          response,
          503,
          "Too many open sessions ("
              + options.sessions().maxSessions()
              + "), each with a request in progress; try again later.");
      return;
    }
    if (session != null && HttpCancellation.isCancel(message.fields())) {
      // Answered here: the SDK has no handler for it and would log a warning.
      cancellation.cancel(session, message.fields());
      response.setStatus(202);
      return;
    }
    if (session != null
        && RequestShape.TOOLS_CALL.equals(message.method())
        && InFlightRequests.markCall(message)) {
      body = Json.mapper().writeValueAsBytes(message.fields());
    }
    ErrorBodies errors =
        new ErrorBodies(
            response,
            message.kind() == Inbound.Kind.RESPONSE
                ? "No request of this session is waiting for an answer with id "
                    + Json.write(message.id())
                    + "."
                : null);
    EventIds events = new EventIds(errors, eventIds);
    HttpCancellation.Exchange exchange = cancellation.open(session, message.fields());
    if (exchange == null) {
      chain.doFilter(new BufferedBody(request, body), events);
    } else {
      // The servlet returns once the request is answered (or its answer dropped).
      try (exchange) {
        chain.doFilter(new BufferedBody(request, body), exchange.wrap(events));
      }
    }
    errors.finish();
    if (initialize && events.sessionId() != null) {
      sessions.opened(events.sessionId());
    }
  }

  /** Closes the sessions idle past their time, at most once a second, in the SDK too. */
  private void closeExpired(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Instant now = clock.instant();
    if (now.isBefore(lastSweep.plusSeconds(1))) {
      return;
    }
    lastSweep = now;
    for (String expired : sessions.takeExpired()) {
      log.debug("session {} expired", expired);
      closeInServer(expired, request, response, chain);
    }
  }

  /**
   * Room for one more session, closing the least recently used idle one when the cap is reached;
   * false when every session has a request in progress.
   */
  private boolean makeRoom(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Optional<Optional<String>> room = sessions.makeRoom();
    if (room.isEmpty()) {
      return false;
    }
    if (room.get().isPresent()) {
      log.debug("session {} closed to make room for a new one", room.get().get());
      closeInServer(room.get().get(), request, response, chain);
    }
    return true;
  }

  /** Has the SDK's servlet close a session, as a client's DELETE would; its answer is dropped. */
  private static void closeInServer(
      String session, HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    chain.doFilter(new SessionDelete(request, session), new Discarded(response));
  }

  private static int firstNonSpace(byte[] body) {
    for (byte b : body) {
      if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
        return b;
      }
    }
    return -1;
  }

  private static void refuse(HttpServletResponse response, int status, String message)
      throws IOException {
    JsonRpcErrors.write(response, status, Inbound.INVALID_REQUEST, message, null, null);
  }

  private static void writeProblem(HttpServletResponse response, int status, Inbound.Problem p)
      throws IOException {
    JsonRpcErrors.write(response, status, p.code(), p.message(), p.id(), p.data());
  }

  private static void writeError(
      HttpServletResponse response, int status, int code, String message, Object id)
      throws IOException {
    JsonRpcErrors.write(response, status, code, message, id, null);
  }
}
