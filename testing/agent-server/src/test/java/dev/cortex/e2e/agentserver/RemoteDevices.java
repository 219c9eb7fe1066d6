package dev.cortex.e2e.agentserver;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.McpClients;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the tests of the remote tools share: an agent server with box1, box2 and winbox registered;
 * two real {@code cortex client} devices on loopback, both working in one folder — box1 enrolled
 * with a code and searching with ripgrep when it is installed, box2 on the shared token with the
 * built-in search (winbox stays offline); and the Java SDK client on {@code cortex mcp --bundles
 * core}, on stdio.
 */
final class RemoteDevices implements AutoCloseable {
  static final String SHARED = "shared-token-for-tests-0123456789";

  private final AgentServer server;
  private final McpSyncClient client;

  private RemoteDevices(AgentServer server, McpSyncClient client) {
    this.server = server;
    this.client = client;
  }

  /**
   * Starts the server, its two devices and the MCP client.
   *
   * @param files the devices' working folder
   */
  static RemoteDevices start(Path serverHome, Path box1Home, Path box2Home, Path files)
      throws Exception {
    AgentServer server =
        new AgentServer(serverHome, Map.of("CORTEX_CLIENT_TOKEN", SHARED))
            .machines(
                """
                {"machines": {
                  "box1": {"platform": "linux", "description": "First test box"},
                  "box2": {"platform": "linux"},
                  "winbox": {"platform": "windows", "description": "A laptop"}
                }}
                """)
            .start();
    try {
      String code = server.enrol("box1");
      server.connect("box1", box1Home, Map.of(), "--enroll", code, "--workdir", files.toString());
      server.connect(
          "box2",
          box2Home,
          Map.of("CORTEX_CLIENT_TOKEN", SHARED),
          "--grep-engine",
          "java",
          "--workdir",
          files.toString());
      McpSyncClient client = McpClients.cortex(serverHome, null, "core");
      return new RemoteDevices(server, client);
    } catch (Exception | AssertionError e) {
      server.close();
      throw e;
    }
  }

  McpSyncClient client() {
    return client;
  }

  @Override
  public void close() {
    client.closeGracefully();
    server.close();
  }
}
