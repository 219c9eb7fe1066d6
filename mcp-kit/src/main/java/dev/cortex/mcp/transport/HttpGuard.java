package dev.cortex.mcp.transport;

import dev.cortex.mcp.Json;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The checks in front of the MCP endpoint: a Host and Origin allowlist against DNS rebinding (403),
 * the bearer token when one is configured (401), a cap on the body (413), and no JSON-RPC batches
 * (400). It also carries out {@code notifications/cancelled}: see {@link HttpCancellation}.
 */
final class HttpGuard implements Filter {
  private final HttpServe.Options options;
  private final boolean loopback;
  private volatile Set<String> hosts = Set.of();
  private volatile Set<String> origins = Set.of();
  private final HttpCancellation cancellation;

  HttpGuard(HttpServe.Options options, boolean loopback, HttpCancellation cancellation) {
    this.options = options;
    this.loopback = loopback;
    this.cancellation = cancellation;
  }

  /** Completes the allowlists once the real port is known. */
  void portBound(int port) {
    Set<String> names = new HashSet<>();
    boolean wildcard = isWildcard(options.bind());
    if (loopback || wildcard) {
      names.add("127.0.0.1");
      names.add("localhost");
      names.add("[::1]");
    }
    if (wildcard) {
      names.addAll(localNames());
    }
    String bind = options.bind().toLowerCase(Locale.ROOT);
    names.add(bind.contains(":") ? "[" + bind + "]" : bind);
    Set<String> allowedHosts = new HashSet<>();
    Set<String> allowedOrigins = new HashSet<>();
    for (String name : names) {
      allowedHosts.add(name + ":" + port);
      allowedOrigins.add("http://" + name + ":" + port);
      allowedOrigins.add("https://" + name + ":" + port);
    }
    for (String extra : options.extraHosts()) {
      allowedHosts.add(extra);
      if (!extra.contains(":") || extra.startsWith("[")) {
        allowedHosts.add(extra + ":" + port);
      }
    }
    allowedOrigins.addAll(options.extraOrigins());
    this.hosts = Set.copyOf(allowedHosts);
    this.origins = Set.copyOf(allowedOrigins);
  }

  private static boolean isWildcard(String bind) {
    try {
      return java.net.InetAddress.getByName(bind).isAnyLocalAddress();
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  /**
   * This machine's addresses and host name: how clients may address a server bound to all of them.
   */
  private static Set<String> localNames() {
    Set<String> names = new HashSet<>();
    try {
      for (java.net.NetworkInterface nic :
          java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
        for (java.net.InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
          String text = address.getHostAddress().toLowerCase(Locale.ROOT);
          int zone = text.indexOf('%');
          text = zone >= 0 ? text.substring(0, zone) : text;
          names.add(address instanceof java.net.Inet6Address ? "[" + text + "]" : text);
        }
      }
      names.add(java.net.InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT));
    } catch (java.io.IOException e) {
      // loopback names remain
    }
    return names;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    HttpServletResponse response = (HttpServletResponse) res;
    try {
      guard((HttpServletRequest) req, response, chain);
    } catch (IOException | ServletException | RuntimeException e) {
      LoggerFactory.getLogger(HttpGuard.class).warn("HTTP request failed", e);
      if (!response.isCommitted()) {
        response.reset();
        writeError(
            response, 500, -32603, "Internal error; the server's log (stderr) has the details.");
      }
    }
  }

  private void guard(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String host = lower(request.getHeader("Host"));
    if (host == null || !(hosts.contains(host) || hosts.contains("*"))) {
      refuse(
          response,
          403,
          "Host header not allowed: requests must address this server by an allowed name.");
      return;
    }
    String origin = lower(request.getHeader("Origin"));
    if (origin != null && !(origins.contains(origin) || origins.contains("*"))) {
      refuse(response, 403, "Origin not allowed: " + origin);
      return;
    }
    if (options.token() != null && !authorized(request.getHeader("Authorization"))) {
      response.setHeader("WWW-Authenticate", "Bearer");
      refuse(response, 401, "Missing or wrong bearer token.");
      return;
    }
    ErrorBodies errors = new ErrorBodies(response);
    if (!"POST".equals(request.getMethod())) {
      chain.doFilter(request, errors);
      errors.finish();
      return;
    }
    if (request.getContentLengthLong() > options.maxBodyBytes()) {
      refuse(response, 413, "Request body exceeds " + options.maxBodyBytes() + " bytes.");
      return;
    }
    byte[] body = request.getInputStream().readNBytes(options.maxBodyBytes() + 1);
    if (body.length > options.maxBodyBytes()) {
      refuse(response, 413, "Request body exceeds " + options.maxBodyBytes() + " bytes.");
      return;
    }
    if (firstNonSpace(body) == '[') {
      refuse(response, 400, "JSON-RPC batches are not supported; send one message per request.");
      return;
    }
    Map<?, ?> message = readObject(body);
    if (RequestShape.TOOLS_CALL.equals(message.get("method"))) {
      String problem = RequestShape.toolsCallProblem(message.get("params"));
      if (problem != null) {
        writeError(response, 400, -32602, problem);
        return;
      }
    }
    String session = request.getHeader(HttpCancellation.SESSION_HEADER);
    if (session != null && HttpCancellation.isCancel(message)) {
      // Answered here: the SDK has no handler for it and would log a warning.
      cancellation.cancel(session, message);
      response.setStatus(202);
      return;
    }
    HttpCancellation.Exchange exchange = cancellation.open(session, message);
    if (exchange == null) {
      chain.doFilter(new BufferedBody(request, body), errors);
    } else {
      // The servlet returns once the request is answered (or its answer dropped).
      try (exchange) {
        if (RequestShape.TOOLS_CALL.equals(message.get("method"))) {
          Map<String, Object> marked = new LinkedHashMap<>();
          message.forEach((key, value) -> marked.put(String.valueOf(key), value));
          marked.put(
              "params", RequestShape.withCallMarker(message.get("params"), exchange.marker()));
          body = Json.mapper().writeValueAsBytes(marked);
        }
        chain.doFilter(new BufferedBody(request, body), exchange.wrap(errors));
      }
    }
    errors.finish();
  }

  /** The body as a JSON object, or an empty map (for bodies the SDK will refuse itself). */
  private static Map<?, ?> readObject(byte[] body) {
    try {
      if (Json.mapper().readValue(body, Object.class) instanceof Map<?, ?> map) {
        return map;
      }
    } catch (RuntimeException e) {
      // not JSON: the SDK answers that
    }
    return Map.of();
  }

  private boolean authorized(String header) {
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = header.substring(7).strip().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, options.token().getBytes(StandardCharsets.UTF_8));
  }

  private static String lower(String value) {
    return value == null ? null : value.strip().toLowerCase(Locale.ROOT);
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
    writeError(response, status, -32600, message);
  }

  private static void writeError(HttpServletResponse response, int status, int code, String message)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.setCharacterEncoding("UTF-8");
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("jsonrpc", "2.0");
    body.put("id", null);
    body.put("error", error);
    response.getWriter().write(Json.write(body));
  }

  /**
   * Rewrites the error responses of the SDK's servlet (which serialises whole exception objects,
   * stack traces included) and of the container into plain JSON-RPC error bodies.
   */
  private static final class ErrorBodies extends HttpServletResponseWrapper {
    private final HttpServletResponse response;
    private StringWriter captured;
    private PrintWriter capturedWriter;

    ErrorBodies(HttpServletResponse response) {
      super(response);
      this.response = response;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      if (getStatus() < 400) {
        return super.getWriter();
      }
      if (captured == null) {
        captured = new StringWriter();
        capturedWriter = new PrintWriter(captured);
      }
      return capturedWriter;
    }

    @Override
    public void sendError(int status) throws IOException {
      writeError(response, status, -32600, reason(status));
    }

    @Override
    public void sendError(int status, String message) throws IOException {
      writeError(response, status, -32600, message == null ? reason(status) : message);
    }

    void finish() throws IOException {
      if (captured == null || response.isCommitted() && response.getStatus() < 400) {
        return;
      }
      capturedWriter.flush();
      int code = -32603;
      String message = reason(response.getStatus());
      try {
        JsonNode node = Json.mapper().readTree(captured.toString());
        JsonNode error = node.has("jsonRpcError") ? node.path("jsonRpcError") : node.path("error");
        if (error.path("code").isInt()) {
          code = error.path("code").asInt();
        }
        if (error.path("message").isString()) {
          message = error.path("message").asString();
        }
      } catch (RuntimeException e) {
        // not JSON: keep the generic message
      }
      writeError(response, response.getStatus(), code, message);
    }

    private static String reason(int status) {
      return switch (status) {
        case 404 -> "Not found: unknown endpoint or session.";
        case 405 -> "Method not allowed.";
        case 413 -> "Request body too large.";
        default -> "Request failed with HTTP status " + status + ".";
      };
    }
  }

  /** A request whose body was read by the guard and is replayed to the servlet. */
  private static final class BufferedBody extends HttpServletRequestWrapper {
    private final byte[] body;

    BufferedBody(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      InputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() throws IOException {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          try {
            return in.available() == 0;
          } catch (IOException e) {
            return true;
          }
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new IllegalStateException("blocking reads only");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(
          new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }
  }
}
