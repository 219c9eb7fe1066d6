package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.ToolContract.Listed;
import dev.cortex.cli.ToolContract.Outcome;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The Java SDK's client, as a test's view of a cortex MCP server. */
final class McpClients {
  static final JacksonMcpJsonMapper MAPPER = new JacksonMcpJsonMapper(JsonMapper.builder().build());

  private McpClients() {}

  static McpSyncClient connect(McpClientTransport transport) {
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(120))
            .build();
    client.initialize();
    return client;
  }

  static Outcome call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    McpSchema.CallToolResult result =
        client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    boolean isError = Boolean.TRUE.equals(result.isError());
    if (isError) {
      assertThat(result.structuredContent()).as("errors carry no structuredContent").isNull();
      return new Outcome(true, ToolContract.JSON.readTree(text), text);
    }
    return new Outcome(false, ToolContract.JSON.valueToTree(result.structuredContent()), text);
  }

  static List<Listed> list(McpSyncClient client) {
    return client.listTools().tools().stream()
        .map(
            t ->
                new Listed(
                    t.name(),
                    ToolContract.JSON.valueToTree(t.annotations()),
                    ToolContract.JSON.valueToTree(t.inputSchema()),
                    ToolContract.JSON.valueToTree(t.outputSchema())))
        .toList();
  }
}
