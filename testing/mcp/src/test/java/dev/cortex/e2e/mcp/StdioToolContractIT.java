package dev.cortex.e2e.mcp;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.McpClients;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;

/** The tool contract over MCP on stdio, with the Java SDK client driving the built program. */
class StdioToolContractIT extends SdkClientContract {

  @BeforeAll
  static void connect() {
    List<String> command = CortexProcess.command("mcp", "--bundles", "core,evidence");
    ServerParameters server =
        ServerParameters.builder(command.get(0))
            .args(command.subList(1, command.size()))
            .env(CortexProcess.env(home))
            .build();
    client = McpClients.connect(new StdioClientTransport(server, McpClients.MAPPER));
  }
}
