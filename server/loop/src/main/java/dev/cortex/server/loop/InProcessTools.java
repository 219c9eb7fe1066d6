package dev.cortex.server.loop;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Json;
import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.transport.InMemoryTransport;
import dev.cortex.models.ToolDefinition;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * A session's bundled MCP server in this process, and the one client of it: the loop lists and
 * calls tools through the SDK's client over an {@link InMemoryTransport}, so that every call is
 * validated, run and answered as over stdio, without a child process.
 */
public final class InProcessTools implements ToolSession {
  /**
   * Tools never offered to the loop: its delegation is its own, and two tools of one name cannot
   * coexist.
   */
  static final Set<String> WITHHELD = Set.of("agent", "agent_stop");

  /** The longest tool answer given to the model; the rest is cut with a note. */
  static final int ANSWER_LIMIT = 100_000;

  /** Longer than any tool's own deadline: the tool answers first. */
  private static final Duration CALL_LIMIT = Duration.ofMinutes(31);

  private final InMemoryTransport transport;
  private final McpAsyncServer server;
  private final McpAsyncClient client;
  private final List<ToolDefinition> tools;
  private final AtomicLong calls = new AtomicLong();

  private InProcessTools(
      InMemoryTransport transport,
      McpAsyncServer server,
      McpAsyncClient client,
      List<ToolDefinition> tools) {
    this.transport = transport;
    this.server = server;
    this.client = client;
    this.tools = tools;
  }

  /** Builds the session's server with {@code servers} and connects to it. */
  public static InProcessTools open(SessionServers servers, Map<String, String> environment) {
    InMemoryTransport transport = new InMemoryTransport(McpAssembly.sdkMapper());
    CancelSignals cancellations = transport.cancelSignals();
    McpAsyncServer server = servers.build(environment, transport.serverSide(), cancellations);
    McpAsyncClient client =
        McpClient.async(transport.clientSide())
            .clientInfo(new McpSchema.Implementation("cortex-agent-loop", "0"))
            .requestTimeout(CALL_LIMIT)
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    try {
      client.initialize().block(Duration.ofSeconds(30));
      List<ToolDefinition> tools = new ArrayList<>();
      String cursor = null;
      do {
        McpSchema.ListToolsResult page = client.listTools(cursor).block(Duration.ofSeconds(30));
        for (McpSchema.Tool tool : page.tools()) {
          if (!WITHHELD.contains(tool.name())) {
            tools.add(
                new ToolDefinition(
                    tool.name(),
                    tool.description() == null ? "" : tool.description(),
                    Json.mapper().valueToTree(tool.inputSchema())));
          }
        }
        cursor = page.nextCursor();
      } while (cursor != null);
      return new InProcessTools(transport, server, client, List.copyOf(tools));
    } catch (RuntimeException e) {
      client.close();
      server.close();
      throw e;
    }
  }

  @Override
  public List<ToolDefinition> tools() {
    return tools;
  }

  @Override
  public Answer call(String name, JsonNode input, Cancellation cancellation)
      throws InterruptedException {
    if (WITHHELD.contains(name) || tools.stream().noneMatch(t -> t.name().equals(name))) {
      return new Answer("No tool '" + name + "' is served in this session.", true);
    }
    String token = "call-" + calls.incrementAndGet();
    @SuppressWarnings("unchecked")
    Map<String, Object> arguments =
        input == null || !input.isObject()
            ? Map.of()
            : Json.mapper().convertValue(input, Map.class);
    McpSchema.CallToolRequest request =
        McpSchema.CallToolRequest.builder()
            .name(name)
            .arguments(arguments)
            .meta(Map.of(CancelSignals.META_KEY, token))
            .build();
    CompletableFuture<McpSchema.CallToolResult> answer = client.callTool(request).toFuture();
    try (Cancellation.Registration ignored =
        cancellation.onCancel(
            () -> {
              transport.cancel(token);
              answer.cancel(true);
            })) {
      return flatten(answer.get());
    } catch (java.util.concurrent.CancellationException e) {
      throw new InterruptedException("the call was cancelled");
    } catch (ExecutionException e) {
      if (cancellation.isCancelled()) {
        throw new InterruptedException("the call was cancelled");
      }
      Throwable cause = e.getCause() == null ? e : e.getCause();
      String message =
          cause instanceof io.modelcontextprotocol.spec.McpError error
              ? error.getMessage()
              : "the tool could not be called";
      return new Answer(message, true);
    } finally {
      transport.finished(token);
    }
  }

  /** A tool's result as text: its text parts; other content named, not inlined. */
  static Answer flatten(McpSchema.CallToolResult result) {
    StringBuilder text = new StringBuilder();
    for (McpSchema.Content content : result.content()) {
      if (!text.isEmpty()) {
        text.append('\n');
      }
      if (content instanceof McpSchema.TextContent t) {
        text.append(t.text());
      } else if (content instanceof McpSchema.ImageContent image) {
        text.append("[an image, ").append(image.mimeType()).append(", not shown]");
      } else if (content instanceof McpSchema.EmbeddedResource resource) {
        text.append("[a resource, ").append(resource.resource().uri()).append(", not shown]");
      } else {
        text.append("[").append(content.type()).append(" content, not shown]");
      }
    }
    if (text.isEmpty() && result.structuredContent() != null) {
      text.append(Json.write(Json.mapper().valueToTree(result.structuredContent())));
    }
    String flat = text.toString();
    if (flat.length() > ANSWER_LIMIT) {
      flat =
          flat.substring(0, ANSWER_LIMIT)
              + "\n[… the answer was cut: "
              + (flat.length() - ANSWER_LIMIT)
              + " more characters]";
    }
    return new Answer(flat, Boolean.TRUE.equals(result.isError()));
  }

  @Override
  public void close() {
    try {
      client.closeGracefully().block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      client.close();
    }
    try {
      server.closeGracefully().block(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      server.close();
    }
  }
}
