package dev.cortex.cli;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The tool contract over MCP on streamable HTTP, with the Java SDK client. */
class HttpToolContractIT extends ToolContract {
  static HttpServer server;
  static McpSyncClient client;

  @BeforeAll
  static void connect() throws Exception {
    server = HttpServer.start(CortexProcess.env(home), "--bundles", "core,evidence");
    client =
        McpClients.connect(
            HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port)
                .endpoint("/mcp")
                .jsonMapper(McpClients.MAPPER)
                .build());
  }

  @AfterAll
  static void close() throws Exception {
    if (client != null) {
      client.closeGracefully();
    }
    if (server != null) {
      server.close();
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
