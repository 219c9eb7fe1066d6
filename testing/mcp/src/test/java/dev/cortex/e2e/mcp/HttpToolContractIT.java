package dev.cortex.e2e.mcp;

import dev.cortex.testing.CortexHttp;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.McpClients;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The tool contract over MCP on streamable HTTP, with the Java SDK client. */
class HttpToolContractIT extends SdkClientContract {
  static CortexHttp server;

  @BeforeAll
  static void connect() throws Exception {
    server = CortexHttp.start(CortexProcess.env(home), "--bundles", "core,evidence");
    client =
        McpClients.connect(
            HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port)
                .endpoint("/mcp")
                .jsonMapper(McpClients.MAPPER)
                .build());
  }

  @AfterAll
  static void stopServer() throws Exception {
    closeClient();
    if (server != null) {
      server.close();
    }
  }
}
