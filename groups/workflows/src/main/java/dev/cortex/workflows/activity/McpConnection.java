package dev.cortex.workflows.activity;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One run's client to one declared MCP server, kept in the {@link RunScope} so that every step
 * calling the server shares it. Initialized on first use; closing it stops a stdio server's
 * process.
 */
final class McpConnection implements AutoCloseable {
  private static final Duration CLOSE_LIMIT = Duration.ofSeconds(5);

  private final McpAsyncClient client;
  private final ServerLog log;
  private boolean initialized;

  McpConnection(McpAsyncClient client, ServerLog log) {
    this.client = Objects.requireNonNull(client, "client");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The last lines the server wrote to stderr, joined; empty when none. */
  String recentStderr() {
    return log.recent();
  }

  /** Starts and initializes the server unless done already; concurrent callers wait for one. */
  synchronized void initialize(Duration limit)
      throws InterruptedException, ExecutionException, TimeoutException {
    if (!initialized) {
      await(client.initialize().toFuture(), limit);
      initialized = true;
    }
  }

  /** Calls {@code tool}; a protocol error (unknown tool, say) fails the future with McpError. */
  McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, Duration limit)
      throws InterruptedException, ExecutionException, TimeoutException {
    return await(
        client
            .callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build())
            .toFuture(),
        limit);
  }

  private static <T> T await(CompletableFuture<T> future, Duration limit)
      throws InterruptedException, ExecutionException, TimeoutException {
    try {
      return limit == null ? future.get() : future.get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException | TimeoutException e) {
      future.cancel(true);
      throw e;
    }
  }

  /**
   * Where a stdio server's stderr goes: a log stream (never stdout), each line prefixed with the
   * server's name; the last few lines are kept to explain a server that fails to start.
   */
  static final class ServerLog implements Consumer<String> {
    private static final int KEPT = 5;

    private final String prefix;
    private final PrintStream out;
    private final Deque<String> recent = new ArrayDeque<>();

    ServerLog(String server, PrintStream out) {
      this.prefix = "[mcp " + server + "] ";
      this.out = out;
    }

    @Override
    public void accept(String line) {
      if (out != null) {
        out.println(prefix + line);
      }
      synchronized (recent) {
        recent.addLast(line);
        if (recent.size() > KEPT) {
          recent.removeFirst();
        }
      }
    }

    String recent() {
      synchronized (recent) {
        return String.join(" | ", recent);
      }
    }
  }

  @Override
  public void close() {
    try {
      client.closeGracefully().toFuture().get(CLOSE_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
    } catch (ExecutionException | TimeoutException e) {
      client.close();
    }
  }
}
