package dev.cortex.e2e.mcp;

import dev.cortex.testing.Listed;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import io.modelcontextprotocol.client.McpSyncClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** The tool contract seen through the Java SDK client; subclasses choose the transport. */
abstract class SdkClientContract extends ToolContract {
  static McpSyncClient client;

  @AfterAll
  static void closeClient() {
    if (client != null) {
      client.closeGracefully();
      client = null;
    }
  }

  @Override
  Outcome call(String tool, Map<String, Object> arguments) {
    return McpClients.call(client, tool, arguments);
  }

  @Override
  List<Listed> list() {
    return McpClients.list(client);
  }
}
