package dev.cortex.e2e.plugins;

import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import tools.jackson.databind.json.JsonMapper;

/**
 * Real MCP servers on loopback, built on the SDK's servlet transports in one Jetty: streamable HTTP
 * at {@code /v1/mcp}, the older SSE transport at {@code /legacy/sse} (messages to {@code
 * /legacy/message}), and {@code /moved}, which answers every request with a redirect to the
 * streamable one. Each MCP server has one tool, {@code shout}; every request's path and its {@code
 * X-Plugin-Key} header are recorded. The headers of the redirect test are sent by a client that
 * must not follow it.
 */
final class RemoteServers implements AutoCloseable {
  static final String HEADER = "X-Plugin-Key";

  /** The streamable HTTP server's path. */
  static final String MCP = "/v1/mcp";

  /** A request as it arrived: its path and the value of {@link #HEADER} (null: none). */
  record Seen(String path, String key) {}

  private final Server jetty = new Server();
  private final McpSyncServer streamable;
  private final McpSyncServer sse;
  final List<Seen> seen = new CopyOnWriteArrayList<>();

  RemoteServers() throws Exception {
    JacksonMcpJsonMapper mapper = new JacksonMcpJsonMapper(JsonMapper.builder().build());
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    HttpServletStreamableServerTransportProvider http =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(mapper)
            .mcpEndpoint(MCP)
            .build();
    HttpServletSseServerTransportProvider legacy =
        HttpServletSseServerTransportProvider.builder()
            .jsonMapper(mapper)
            .sseEndpoint("/legacy/sse")
            .messageEndpoint("/legacy/message")
            .build();
    streamable = server(McpServer.sync(http), "streamable", "Shouts a word back.");
    sse = server(McpServer.sync(legacy), "sse", "Shouts a word back.");
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder httpServlet = new ServletHolder(http);
    httpServlet.setAsyncSupported(true);
    context.addServlet(httpServlet, MCP);
    ServletHolder legacyServlet = new ServletHolder(legacy);
    legacyServlet.setAsyncSupported(true);
    context.addServlet(legacyServlet, "/legacy/*");
    context.addServlet(
        new ServletHolder(
            new HttpServlet() {
              @Override
              protected void service(HttpServletRequest request, HttpServletResponse response) {
                response.setStatus(307);
                response.setHeader("Location", url(MCP));
              }
            }),
        "/moved");
    Filter record =
        (request, response, chain) -> {
          HttpServletRequest r = (HttpServletRequest) request;
          seen.add(new Seen(r.getRequestURI(), r.getHeader(HEADER)));
          chain.doFilter(request, response);
        };
    FilterHolder filter = new FilterHolder(record);
    filter.setAsyncSupported(true);
    context.addFilter(filter, "/*", EnumSet.of(DispatcherType.REQUEST));
    jetty.setHandler(context);
    jetty.start();
  }

  private static McpSyncServer server(
      McpServer.SyncSpecification<?> spec, String name, String description) {
    return spec.serverInfo(name, "1")
        .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
        .tools(shout(description))
        .build();
  }

  private static SyncToolSpecification shout(String description) {
    McpSchema.Tool tool =
        McpSchema.Tool.builder("shout", Map.of("type", "object")).description(description).build();
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) ->
                McpSchema.CallToolResult.builder()
                    .addTextContent(
                        String.valueOf(request.arguments().getOrDefault("word", "")).toUpperCase()
                            + "!")
                    .build())
        .build();
  }

  /** Gives the streamable server's {@code shout} another description. */
  void redescribe(String description) {
    streamable.removeTool("shout");
    streamable.addTool(shout(description));
  }

  int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  String url(String path) {
    return "http://127.0.0.1:" + port() + path;
  }

  @Override
  public void close() throws Exception {
    streamable.closeGracefully();
    sse.closeGracefully();
    jetty.stop();
  }
}
