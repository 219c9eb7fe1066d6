package dev.cortex.mcp.transport;

import dev.cortex.base.StartupException;
import dev.cortex.http.HttpHost;
import dev.cortex.mcp.caller.RequestWithdrawal;
import dev.cortex.mcp.compose.McpAssembly;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;

/**
 * MCP over streamable HTTP at {@code /mcp}: the SDK's servlet transport behind a {@link HttpGuard}
 * that checks Host, Origin, the bearer token, body size and batches, mounted on an {@link HttpHost}
 * of its own with one connector, {@value #CONNECTOR}.
 */
public final class HttpServe {
  public static final String ENDPOINT = "/mcp";

  /** The name of the one connector, in the host's messages. */
  static final String CONNECTOR = "mcp";

  /** The largest body cap that may be configured (1 GiB). */
  static final int MAX_BODY_LIMIT = 1 << 30;

  /** How long requests in flight may take to finish once the server stops. */
  private static final Duration GRACE = Duration.ofSeconds(5);

  private final HttpHost host;
  private final McpAsyncServer mcp;
  private final Options options;

  private HttpServe(HttpHost host, McpAsyncServer mcp, Options options) {
    this.host = host;
    this.mcp = mcp;
    this.options = options;
  }

  /** Builds the MCP server that answers on this transport. */
  @FunctionalInterface
  public interface ServerFactory {
    /**
     * The server on {@code provider}, whose tool calls hear of their cancellation through {@code
     * hooks}.
     */
    McpAsyncServer build(
        HttpServletStreamableServerTransportProvider provider, McpAssembly.TransportHooks hooks);
  }

  /**
   * What to bind and whom to let in.
   *
   * @param bind the address to bind
   * @param port the port, 0 for any free one
   * @param token the bearer token clients must send, or null (allowed on loopback only)
   * @param extraHosts further Host header values to accept ({@code host} or {@code host:port})
   * @param extraOrigins further Origin values to accept
   * @param maxBodyBytes the largest request body accepted
   * @param sessions how long a session may stay unused, and how many may be open
   */
  public record Options(
      String bind,
      int port,
      String token,
      List<String> extraHosts,
      List<String> extraOrigins,
      int maxBodyBytes,
      SessionLimits sessions) {
    public Options {
      extraHosts = List.copyOf(extraHosts);
      extraOrigins = List.copyOf(extraOrigins);
      if (maxBodyBytes <= 0) {
        throw new IllegalArgumentException("maxBodyBytes must be positive");
      }
      sessions = sessions == null ? SessionLimits.DEFAULTS : sessions;
    }

    /** Options with the default session limits. */
    public Options(
        String bind,
        int port,
        String token,
        List<String> extraHosts,
        List<String> extraOrigins,
        int maxBodyBytes) {
      this(bind, port, token, extraHosts, extraOrigins, maxBodyBytes, SessionLimits.DEFAULTS);
    }

    /**
     * Reads {@code CORTEX_MCP_HTTP_TOKEN}, {@code CORTEX_MCP_ALLOWED_HOSTS}, {@code
     * CORTEX_MCP_ALLOWED_ORIGINS} (comma lists), {@code CORTEX_MCP_HTTP_MAX_BODY_BYTES} and the
     * {@link SessionLimits} variables.
     */
    public static Options fromEnvironment(String bind, int port, Map<String, String> env) {
      String token = env.get("CORTEX_MCP_HTTP_TOKEN");
      int max = 4 * 1024 * 1024;
      String maxText = env.get("CORTEX_MCP_HTTP_MAX_BODY_BYTES");
      if (maxText != null && !maxText.isBlank()) {
        try {
          max = Integer.parseInt(maxText.strip());
        } catch (NumberFormatException e) {
          throw new StartupException(
              "CORTEX_MCP_HTTP_MAX_BODY_BYTES must be an integer from 1 to "
                  + MAX_BODY_LIMIT
                  + ", got '"
                  + maxText
                  + "'");
        }
        if (max <= 0 || max > MAX_BODY_LIMIT) {
          throw new StartupException(
              "CORTEX_MCP_HTTP_MAX_BODY_BYTES must be an integer from 1 to "
                  + MAX_BODY_LIMIT
                  + ", got '"
                  + maxText
                  + "'");
        }
      }
      return new Options(
          bind,
          port,
          token == null || token.isBlank() ? null : token,
          split(env.get("CORTEX_MCP_ALLOWED_HOSTS")),
          split(env.get("CORTEX_MCP_ALLOWED_ORIGINS")),
          max,
          SessionLimits.fromEnvironment(env));
    }

    private static List<String> split(String value) {
      List<String> items = new ArrayList<>();
      if (value != null) {
        for (String part : value.split(",")) {
          if (!part.isBlank()) {
            items.add(part.strip().toLowerCase(Locale.ROOT));
          }
        }
      }
      return items;
    }
  }

  /**
   * Starts serving the tools named {@code tools}: a {@code tools/call} of any other is answered as
   * MCP says, with invalid params naming those there are (null leaves that to the server). {@code
   * serverFactory} builds the MCP server on the SDK's transport provider; a client's cancel of a
   * tool call reaches the call through the hooks it is given.
   *
   * @throws StartupException when the options are unsafe or the port cannot be bound
   */
  public static HttpServe start(
      Options options, Collection<String> tools, ServerFactory serverFactory) {
    if (!HttpHost.isLoopback(options.bind()) && options.token() == null) {
      throw new StartupException(
          "Binding MCP to "
              + options.bind()
              + " exposes it beyond this machine: set CORTEX_MCP_HTTP_TOKEN to a secret"
              + " that clients send as 'Authorization: Bearer <token>'.");
    }
    HttpServletStreamableServerTransportProvider provider =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(McpAssembly.sdkMapper())
            .mcpEndpoint(ENDPOINT)
            .maxRequestSize(options.maxBodyBytes())
            // The guard closes sessions once idle; this frees one nobody asks about any more.
            .sessionSweepInterval(options.sessions().idle())
            .build();
    HttpGuard guard = new HttpGuard(options, tools, Clock.systemUTC());
    McpAsyncServer mcp =
        serverFactory.build(
            provider,
            new McpAssembly.TransportHooks(RequestWithdrawal.NONE, guard.cancelSignals()));
    HttpHost host;
    try {
      host =
          HttpHost.builder("cortex-http")
              .connector(CONNECTOR, options.bind(), options.port(), null)
              .route(CONNECTOR, "/*", context(provider, guard))
              .start();
    } catch (StartupException e) {
      mcp.closeGracefully().block(GRACE);
      throw e;
    }
    guard.portBound(host.port(CONNECTOR));
    return new HttpServe(host, mcp, options);
  }

  /** The SDK's servlet at {@link #ENDPOINT}, every path behind the guard. */
  private static ServletContextHandler context(
      HttpServletStreamableServerTransportProvider provider, HttpGuard guard) {
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder servlet = new ServletHolder(provider);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, ENDPOINT);
    FilterHolder filter = new FilterHolder(guard);
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    return context;
  }

  /** The port actually bound. */
  public int port() {
    return host.port(CONNECTOR);
  }

  /** The URL clients connect to. */
  public String endpoint() {
    String host = options.bind().contains(":") ? "[" + options.bind() + "]" : options.bind();
    return "http://" + host + ":" + port() + ENDPOINT;
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    host.join();
  }

  /** Closes every session, then stops serving once the requests in flight have finished. */
  public void stop() {
    mcp.closeGracefully().block(GRACE);
    host.stop(GRACE);
  }
}
