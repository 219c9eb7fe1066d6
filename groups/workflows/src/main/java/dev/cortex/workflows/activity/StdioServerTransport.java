package dev.cortex.workflows.activity;

import dev.cortex.process.LineSplitter;
import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.process.StandardStream;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * The client side of MCP over stdio to a server a run starts, on Cortex's process runner: the
 * server leads a process group of its own, so that closing the transport (or the run's end, or the
 * JVM's) ends the server and everything it started. Lines on stdout are JSON-RPC messages; lines on
 * stderr go to {@code stderr}.
 */
final class StdioServerTransport implements McpClientTransport {
  private static final Logger log = LoggerFactory.getLogger(StdioServerTransport.class);

  /** The longest line read from the server; a longer one is dropped. */
  static final int MAX_LINE_BYTES = 64 * 1024 * 1024;

  /**
   * How long a server has to exit once its input is closed, before its group gets TERM (and KILL
   * after the runner's grace), as the MCP stdio transport describes shutting a server down.
   */
  private static final Duration CLOSE_GRACE = Duration.ofMillis(300);

  private final ProcessSpec spec;
  private final McpJsonMapper mapper;
  private final Consumer<String> stderr;
  private final ProcessObserver observer;
  private final Sinks.Many<McpSchema.JSONRPCMessage> inbound =
      Sinks.many().unicast().onBackpressureBuffer();
  private final LineSplitter out = lines(this::message);
  private final LineSplitter err;
  private final CompletableFuture<RunningProcess> started = new CompletableFuture<>();
  private volatile RunningProcess process;
  private volatile boolean closing;

  StdioServerTransport(
      ProcessSpec spec, McpJsonMapper mapper, Consumer<String> stderr, ProcessObserver observer) {
    this.spec = spec;
    this.mapper = mapper;
    this.stderr = stderr;
    this.observer = observer;
    this.err = lines(stderr);
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.<Void>fromRunnable(
            () -> {
              inbound
                  .asFlux()
                  .flatMap(message -> Mono.just(message).transform(handler))
                  .subscribe(null, e -> log.debug("inbound message handling failed", e));
              OutputListener listener =
                  (stream, bytes, offset, length) ->
                      (stream == StandardStream.STDOUT ? out : err).accept(bytes, offset, length);
              try {
                process = Processes.start(spec, listener);
              } catch (IOException e) {
                UncheckedIOException failure =
                    new UncheckedIOException("the server could not be started", e);
                started.completeExceptionally(failure);
                throw failure;
              }
              observer.started(process);
              started.complete(process);
            })
        .subscribeOn(Schedulers.boundedElastic());
  }

  private void message(String line) {
    if (line.isBlank()) {
      return;
    }
    try {
      McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(mapper, line);
      if (!inbound.tryEmitNext(message).isSuccess() && !closing) {
        log.warn("a message from the server was dropped");
      }
    } catch (IOException | RuntimeException e) {
      stderr.accept("(not a JSON-RPC message on stdout: " + abbreviate(line) + ")");
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    // Messages sent while the server is still being started wait for it.
    return Mono.fromFuture(started.copy()).flatMap(running -> write(running, message));
  }

  private Mono<Void> write(RunningProcess running, McpSchema.JSONRPCMessage message) {
    return Mono.fromRunnable(
        () -> {
          if (closing) {
            throw new IllegalStateException("the server is closed");
          }
          try {
            String json = mapper.writeValueAsString(message);
            byte[] line =
                (json.replace("\r", "\\r").replace("\n", "\\n") + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            OutputStream in = running.stdin();
            synchronized (in) {
              in.write(line);
              in.flush();
            }
          } catch (IOException e) {
            throw new UncheckedIOException("the server's input is closed", e);
          }
        });
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.<Void>fromRunnable(this::close).subscribeOn(Schedulers.boundedElastic());
  }

  /** Closes the server's input, gives it a moment to exit, then ends its whole group. */
  @Override
  public void close() {
    closing = true;
    started.completeExceptionally(new IllegalStateException("the transport is closed"));
    RunningProcess running = process;
    if (running != null) {
      try {
        running.closeInputThenEnd(CLOSE_GRACE);
      } finally {
        observer.ended(running);
      }
    }
    inbound.tryEmitComplete();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return mapper.convertValue(data, typeRef);
  }

  private static LineSplitter lines(Consumer<String> sink) {
    return new LineSplitter(
        MAX_LINE_BYTES,
        sink,
        () -> log.warn("a line of over {} bytes from an MCP server was dropped", MAX_LINE_BYTES));
  }

  private static String abbreviate(String line) {
    return line.length() <= 200 ? line : line.substring(0, 200) + "…";
  }
}
