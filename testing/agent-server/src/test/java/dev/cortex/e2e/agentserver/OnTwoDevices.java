package dev.cortex.e2e.agentserver;

import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class whose tests share one agent server, its two devices ({@link RemoteDevices}) and an
 * MCP client of {@code cortex mcp}, started before the first test and stopped after the last.
 */
abstract class OnTwoDevices {
  @TempDir static Path serverHome;
  @TempDir static Path box1Home;
  @TempDir static Path box2Home;
  @TempDir static Path files;

  static RemoteDevices devices;
  static McpSyncClient client;

  @BeforeAll
  static void start() throws Exception {
    devices = RemoteDevices.start(serverHome, box1Home, box2Home, files);
    client = devices.client();
  }

  @AfterAll
  static void stop() {
    if (devices != null) {
      devices.close();
      devices = null;
    }
  }

  static Outcome call(String tool, Map<String, Object> arguments) {
    return McpClients.call(client, tool, arguments);
  }
}
