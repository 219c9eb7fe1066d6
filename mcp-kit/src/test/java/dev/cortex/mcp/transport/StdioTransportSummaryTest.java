package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the stdio transport's log says of a message: never its contents. */
class StdioTransportSummaryTest {
  static final String SECRET = "cxd_0123456789abcdef";

  /** Regression: the log of a withheld answer wrote the whole response, a file's text included. */
  @Test
  void summary_response_hasIdAndSizeButNotTheResult() {
    McpSchema.JSONRPCResponse response =
        new McpSchema.JSONRPCResponse(
            McpSchema.JSONRPC_VERSION,
            7,
            Map.of("content", List.of(Map.of("type", "text", "text", "token=" + SECRET))),
            null);
    String json = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"token=" + SECRET + "\"}}";

    String summary = StdioTransport.summary(response, json);

    assertThat(summary).isEqualTo("response id 7, " + json.length() + " bytes");
    assertThat(summary).doesNotContain(SECRET);
  }

  @Test
  void summary_request_hasMethodAndIdButNotTheParams() {
    McpSchema.JSONRPCRequest request =
        new McpSchema.JSONRPCRequest(
            McpSchema.JSONRPC_VERSION,
            "elicitation/create",
            "e-1",
            Map.of("message", "Paste " + SECRET));

    String summary = StdioTransport.summary(request, "{\"x\":\"" + SECRET + "\"}");

    assertThat(summary).startsWith("request elicitation/create id e-1, ").doesNotContain(SECRET);
  }

  @Test
  void summary_notification_hasMethodButNotTheParams() {
    McpSchema.JSONRPCNotification notification =
        new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION,
            McpSchema.METHOD_NOTIFICATION_PROGRESS,
            Map.of("message", SECRET));

    assertThat(StdioTransport.summary(notification, "{}"))
        .isEqualTo("notification notifications/progress, 2 bytes");
  }

  @Test
  void summary_sizeIsInBytesOfUtf8() {
    McpSchema.JSONRPCResponse response =
        new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, Map.of(), null);

    assertThat(StdioTransport.summary(response, "\"é\"")).endsWith(", 4 bytes");
  }
}
