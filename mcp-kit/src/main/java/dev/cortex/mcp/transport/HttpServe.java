package dev.cortex.mcp.transport;

import dev.cortex.base.StartupException;
import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.compose.McpAssembly;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * MCP over streamable HTTP at {@code /mcp}, on Jetty and the SDK's servlet transport, behind a
 * {@link HttpGuard} that checks Host, Origin, the bearer token, body size and batches.
 */
public final class HttpServe {
  public static final String ENDPOINT = "/mcp";

  /** The largest body cap that may be configured (1 GiB). */
  static final int MAX_BODY_LIMIT = 1 << 30;

  private final Server server;
  private final ServerConnector connector;
  private final McpAsyncServer mcp;
  private final Options options;

  private HttpServe(Server server, ServerConnector connector, McpAsyncServer mcp, Options options) {
    this.server = server;
    this.connector = connector;
    this.mcp = mcp;
    this.options = options;
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
   * Starts serving. {@code serverFactory} builds the MCP server on the given transport provider.
   *
   * @throws StartupException when the options are unsafe or the port cannot be bound
   */
  public static HttpServe start(
      Options options,
      Function<HttpServletStreamableServerTransportProvider, McpAsyncServer> serverFactory)
      throws Exception {
    return start(options, null, new CancelSignals(), serverFactory);
  }

  /**
   * Starts serving the tools named {@code tools}: a {@code tools/call} of any other is answered as
   * MCP says, with invalid params naming those there are (null leaves that to the server). A
   * client's cancel of a tool call fires its signal in {@code cancels}.
   *
   * @throws StartupException when the options are unsafe or the port cannot be bound
   */
  public static HttpServe start(
      Options options,
      Collection<String> tools,
      CancelSignals cancels,
      Function<HttpServletStreamableServerTransportProvider, McpAsyncServer> serverFactory)
      throws Exception {
    boolean loopback = dev.cortex.http.HttpHost.isLoopback(options.bind());
    if (!loopback && options.token() == null) {
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
    McpAsyncServer mcp = serverFactory.apply(provider);

    QueuedThreadPool threads = new QueuedThreadPool(64, 4);
    threads.setName("cortex-http");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(options.bind());
    connector.setPort(options.port());
    server.addConnector(connector);

    HttpGuard guard = new HttpGuard(options, tools, cancels, Clock.systemUTC());
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder servlet = new ServletHolder(provider);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, ENDPOINT);
    FilterHolder filter = new FilterHolder(guard);
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    server.setHandler(context);
    try {
      server.start();
    } catch (java.io.IOException e) {
      server.stop();
      throw new StartupException(
          "Cannot listen on " + options.bind() + ":" + options.port() + ": " + e.getMessage());
    }
    guard.portBound(connector.getLocalPort());
    return new HttpServe(server, connector, mcp, options);
  }

  /** The port actually bound. */
  public int port() {
    return connector.getLocalPort();
  }

  /** The URL clients connect to. */
  public String endpoint() {
    String host = options.bind().contains(":") ? "[" + options.bind() + "]" : options.bind();
    return "http://" + host + ":" + port() + ENDPOINT;
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** Stops serving and closes every session. */
  public void stop() {
    try {
      mcp.closeGracefully().block(java.time.Duration.ofSeconds(5));
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the HTTP server failed", e);
    }
  }
}
