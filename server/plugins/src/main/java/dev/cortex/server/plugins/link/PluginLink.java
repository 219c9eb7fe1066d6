package dev.cortex.server.plugins.link;

import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.util.Map;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * A connection to one plugin MCP server, carrying JSON-RPC messages both ways: a local process on
 * its standard streams, or a remote server over streamable HTTP or SSE. Remote links never follow a
 * redirect. What a link reports (its failures, its end) names the server by its summary only: never
 * a URL's path, a header value or an environment value.
 */
public interface PluginLink extends AutoCloseable {
  /**
   * Connects: messages from the server go to {@code inbound} (from the link's own threads, one at a
   * time); once the link can carry nothing more it calls {@code ended} once, with the reason.
   */
  void start(Consumer<JsonNode> inbound, Consumer<String> ended) throws IOException;

  /** Sends one message to the server; a failure is a {@link LinkFailure}. */
  void send(JsonNode message) throws IOException;

  /** Ends the connection (and a local server's process group); idempotent. */
  @Override
  void close();

  /**
   * A link to {@code server}, whose {@code ${PLUGIN_DATA}} has been made real. A local server's
   * environment is {@code environment} with the server's own variables over it; its lines on
   * standard error go to {@code stderr}.
   */
  static PluginLink of(
      PluginServer server, Map<String, String> environment, Consumer<String> stderr) {
    if (server instanceof PluginServer.Stdio stdio) {
      return new StdioLink(stdio, environment, stderr);
    }
    PluginServer.Remote remote = (PluginServer.Remote) server;
    return remote.type().equals("sse") ? new SseLink(remote) : new HttpLink(remote);
  }

  /** A link that failed: its message is safe to show anywhere. */
  final class LinkFailure extends IOException {
    private static final long serialVersionUID = 1L;

    public LinkFailure(String message) {
      super(message);
    }
  }
}
