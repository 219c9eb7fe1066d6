package dev.cortex.http;

import dev.cortex.base.StartupException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One Jetty server for a long-lived process, with one connector per port (each with its own name,
 * address and optional TLS) and routes mounted per connector: the agent server's webhook and device
 * hub, and MCP over streamable HTTP ({@code cortex mcp --http}). A request is routed only among the
 * routes of the connector it arrived on, so a route mounted on the loopback webhook can never be
 * reached through the hub's port. Stopping is graceful: requests in flight may finish within the
 * grace period.
 */
public final class HttpHost implements AutoCloseable {
  private final Server server;
  private final Map<String, ServerConnector> connectors;

  private HttpHost(Server server, Map<String, ServerConnector> connectors) {
    this.server = server;
    this.connectors = connectors;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The port a connector actually bound (useful with port 0). */
  public int port(String connector) {
    ServerConnector found = connectors.get(connector);
    if (found == null) {
      throw new IllegalArgumentException("no connector named " + connector);
    }
    return found.getLocalPort();
  }

  /** The Jetty server, for components that attach to it (WebSocket containers). */
  public Server server() {
    return server;
  }

  /** Stops accepting, lets requests in flight finish for up to {@code grace}, then stops. */
  public void stop(Duration grace) {
    server.setStopTimeout(grace.toMillis());
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("stopping the HTTP server failed", e);
    }
  }

  @Override
  public void close() {
    stop(Duration.ofSeconds(5));
  }

  /** Blocks until the server has stopped. */
  public void join() throws InterruptedException {
    server.join();
  }

  /** Whether {@code bind} names a loopback address. */
  public static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      throw new StartupException("Cannot resolve bind address '" + bind + "'");
    }
  }

  /** Builder of an {@link HttpHost}: connectors first, then routes on them. */
  public static final class Builder {
    private final String name;
    private final Map<String, ConnectorSpec> connectors = new LinkedHashMap<>();
    private final Map<String, PathMappingsHandler> routes = new LinkedHashMap<>();
    private final List<Customizer> customizers = new ArrayList<>();
    private final List<Runnable> late = new ArrayList<>();
    private Server building;

    private record ConnectorSpec(
        String bind, int port, SslContextFactory.Server tls, Duration idleTimeout, int threads) {
      ConnectorSpec withThreads(int max) {
        return new ConnectorSpec(bind, port, tls, idleTimeout, max);
      }
    }

    /** Work to do on the server before it starts (e.g. attach a WebSocket container). */
    @FunctionalInterface
    public interface Customizer {
      void customize(Server server);
    }

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * Adds a connector.
     *
     * @param tls TLS for this connector, or null for plain HTTP
     */
    public Builder connector(
        String connector, String bind, int port, SslContextFactory.Server tls) {
      return connector(connector, bind, port, tls, Duration.ofSeconds(30));
    }

    /**
     * Adds a connector whose connections may stay silent for {@code idleTimeout} (long requests
     * that stream nothing for a while need more than the default 30 s).
     */
    public Builder connector(
        String connector,
        String bind,
        int port,
        SslContextFactory.Server tls,
        Duration idleTimeout) {
      if (connectors.put(connector, new ConnectorSpec(bind, port, tls, idleTimeout, 0)) != null) {
        throw new IllegalArgumentException("connector declared twice: " + connector);
      }
      routes.put(connector, new PathMappingsHandler());
      return this;
    }

    /**
     * Gives {@code connector} a pool of its own, of at most {@code max} threads, that reads and
     * handles its connections: requests on the other connectors that wait long (a remote command
     * waiting for its device, a followed turn) can then never take the threads its traffic needs (a
     * device's heartbeats and results on the hub). Without it, a connector shares the server's pool
     * of 200.
     */
    public Builder ownThreads(String connector, int max) {
      ConnectorSpec spec = connectors.get(connector);
      if (spec == null) {
        throw new IllegalArgumentException("declare the connector first: " + connector);
      }
      if (max < 4) {
        throw new IllegalArgumentException("a connector's own pool needs at least 4 threads");
      }
      connectors.put(connector, spec.withThreads(max));
      return this;
    }

    /**
     * Mounts {@code handler} at {@code pathSpec} (e.g. {@code /webhook/*}, or {@code /*} for every
     * path) on {@code connector}. The handler sees the request's whole path; a servlet context
     * handler with context path {@code /} serves as a route too.
     */
    public Builder route(String connector, String pathSpec, Handler handler) {
      PathMappingsHandler mappings = routes.get(connector);
      if (mappings == null) {
        throw new IllegalArgumentException("declare the connector first: " + connector);
      }
      mappings.addMapping(PathSpec.from(pathSpec), handler);
      return this;
    }

    /**
     * Mounts the handler {@code factory} builds once the server exists (a WebSocket upgrade handler
     * needs it) at {@code pathSpec} on {@code connector}.
     */
    public Builder route(
        String connector, String pathSpec, java.util.function.Function<Server, Handler> factory) {
      if (!routes.containsKey(connector)) {
        throw new IllegalArgumentException("declare the connector first: " + connector);
      }
      late.add(() -> route(connector, pathSpec, factory.apply(building)));
      return this;
    }

    public Builder customize(Customizer customizer) {
      customizers.add(customizer);
      return this;
    }

    /**
     * Binds every connector and starts serving.
     *
     * @throws StartupException naming the address when a port cannot be bound
     */
    public HttpHost start() {
      QueuedThreadPool threads = new QueuedThreadPool(200, 4);
      threads.setName(name);
      Server server = new Server(threads);
      building = server;
      late.forEach(Runnable::run);
      Map<String, ServerConnector> bound = new LinkedHashMap<>();
      connectors.forEach(
          (connector, spec) -> {
            ConnectionFactory[] factories =
                spec.tls() == null
                    ? new ConnectionFactory[] {new HttpConnectionFactory()}
                    : new ConnectionFactory[] {
                      new SslConnectionFactory(spec.tls(), "http/1.1"), new HttpConnectionFactory()
                    };
            QueuedThreadPool own = null;
            if (spec.threads() > 0) {
              own = new QueuedThreadPool(spec.threads(), 2);
              own.setName(name + "-" + connector);
            }
            // A pool given to the connector is started and stopped with it.
            ServerConnector jetty = new ServerConnector(server, own, null, null, -1, -1, factories);
            jetty.setName(connector);
            jetty.setHost(spec.bind());
            jetty.setPort(spec.port());
            jetty.setIdleTimeout(spec.idleTimeout().toMillis());
            server.addConnector(jetty);
            bound.put(connector, jetty);
          });
      server.setHandler(new GracefulHandler(new ByConnector(routes)));
      customizers.forEach(c -> c.customize(server));
      try {
        server.start();
      } catch (Exception e) {
        try {
          server.stop();
        } catch (Exception ignored) {
          // nothing was serving
        }
        throw new StartupException(bindFailure(bound, e));
      }
      return new HttpHost(server, Map.copyOf(bound));
    }

    private static String bindFailure(Map<String, ServerConnector> bound, Exception e) {
      for (ServerConnector connector : bound.values()) {
        if (!connector.isOpen()) {
          return "Cannot listen on "
              + connector.getHost()
              + ":"
              + connector.getPort()
              + " ("
              + connector.getName()
              + "): "
              + (e instanceof IOException && e.getMessage() != null
                  ? e.getMessage()
                  : e.getClass().getSimpleName())
              + ". Is another server using it?";
        }
      }
      return "Cannot start the HTTP server: " + e.getMessage();
    }
  }

  /** Routes a request among the routes of the connector it arrived on; else 404. */
  private static final class ByConnector extends Handler.AbstractContainer {
    private final Map<String, ContextHandler> routes = new LinkedHashMap<>();

    ByConnector(Map<String, PathMappingsHandler> mappings) {
      mappings.forEach(
          (connector, paths) -> {
            ContextHandler context = new ContextHandler("/");
            context.setHandler(paths);
            routes.put(connector, context);
            addBean(context);
          });
    }

    @Override
    public List<Handler> getHandlers() {
      return List.copyOf(routes.values());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      Connector connector = request.getConnectionMetaData().getConnector();
      ContextHandler mappings = connector == null ? null : routes.get(connector.getName());
      if (mappings != null && mappings.handle(request, response, callback)) {
        return true;
      }
      JsonBodies.error(response, callback, 404, "NOT_FOUND", "No such route.");
      return true;
    }
  }
}
