package dev.cortex.workflows.activity;

import dev.cortex.mcp.compose.McpAssembly;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A real MCP server on stdio, built on the SDK, for {@link McpActivityTest}: started as a child
 * JVM. Its tools count their calls per process and report the process id, so a test can tell how
 * many servers a run started and whether one is still alive.
 */
public final class McpTestServer {
  private static final AtomicInteger CALLS = new AtomicInteger();

  private McpTestServer() {}

  public static void main(String[] args) throws InterruptedException {
    // An orphan must not outlive the test JVM.
    ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> System.exit(0)));
    System.err.println("test server starting");
    McpServer.sync(new StdioServerTransportProvider(McpAssembly.sdkMapper()))
        .serverInfo("cortex-test-server", "1")
        .jsonMapper(McpAssembly.sdkMapper())
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .tools(
            tool("echo", McpTestServer::echo),
            tool("text", McpTestServer::text),
            tool("json_text", (exchange, request) -> textResult("{\"a\":1,\"b\":[1,2]}", false)),
            tool("env", McpTestServer::env),
            tool("fail", McpTestServer::fail),
            tool("slow", McpTestServer::slow))
        .build();
    new CountDownLatch(1).await();
  }

  private static SyncToolSpecification tool(
      String name,
      BiFunction<McpSyncServerExchange, McpSchema.CallToolRequest, McpSchema.CallToolResult>
          handler) {
    McpSchema.Tool tool =
        McpSchema.Tool.builder(name, Map.of("type", "object"))
            .description("test tool " + name)
            .build();
    return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
  }

  private static McpSchema.CallToolResult echo(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("arguments", request.arguments() == null ? Map.of() : request.arguments());
    body.put("calls", CALLS.incrementAndGet());
    body.put("pid", ProcessHandle.current().pid());
    return McpSchema.CallToolResult.builder()
        .addTextContent("echoed")
        .structuredContent(body)
        .build();
  }

  private static McpSchema.CallToolResult text(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    return textResult("hello " + request.arguments().getOrDefault("name", "world"), false);
  }

  private static McpSchema.CallToolResult env(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    String value = System.getenv(String.valueOf(request.arguments().get("name")));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("value", value);
    return McpSchema.CallToolResult.builder().addTextContent("env").structuredContent(body).build();
  }

  private static McpSchema.CallToolResult fail(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Object repeat = request.arguments().getOrDefault("repeat", 1);
    return textResult("it broke. ".repeat(((Number) repeat).intValue()).strip(), true);
  }

  /** Touches the file named by {@code started}, then answers only after a minute. */
  private static McpSchema.CallToolResult slow(
      McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    try {
      Object started = request.arguments().get("started");
      if (started != null) {
        Files.writeString(
            Path.of(started.toString()), Long.toString(ProcessHandle.current().pid()));
      }
      Thread.sleep(60_000);
    } catch (Exception e) {
      return textResult("interrupted", true);
    }
    return textResult("done", false);
  }

  private static McpSchema.CallToolResult textResult(String text, boolean isError) {
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(isError).build();
  }
}
