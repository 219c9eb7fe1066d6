package dev.cortex.mcp.transport;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.mcp.caller.CancelSignals;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * An MCP server and its one client in the same process, joined without bytes: the client's messages
 * are handed to the server's session as objects and the server's back to the client. An agent loop
 * inside the agent server reaches a session's bundled server this way, with no subprocess and no
 * serialisation.
 *
 * <p>Cancelling a call does not travel as a notification: the caller names the call with a token of
 * its choosing under {@link CancelSignals#META_KEY} in the request's {@code _meta}, and trips it
 * with {@link #cancel}; the server's tool hears it through {@link #cancelSignals()}.
 */
public final class InMemoryTransport {
  private final McpJsonMapper mapper;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Map<Object, CancellationSignal> calls = new ConcurrentHashMap<>();
  private volatile McpServerSession session;
  private volatile Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> client;

  public InMemoryTransport(McpJsonMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  /** The server's side, to build the server on. */
  public McpServerTransportProvider serverSide() {
    return new ServerSide();
  }

  /** The client's side, to build the client on. */
  public McpClientTransport clientSide() {
    return new ClientSide();
  }

  /** How the server's tools hear that the caller cancelled them. */
  public CancelSignals cancelSignals() {
    return (sessionId, token) ->
        token == null
            ? Cancellation.NONE
            : calls.computeIfAbsent(token, t -> new CancellationSignal());
  }

  /** Cancels the call named {@code token}; one not seen yet is cancelled when it arrives. */
  public void cancel(Object token) {
    calls.computeIfAbsent(token, t -> new CancellationSignal()).cancel();
  }

  /** Forgets the call named {@code token} once it has answered. */
  public void finished(Object token) {
    calls.remove(token);
  }

  private Mono<Void> toServer(McpSchema.JSONRPCMessage message) {
    McpServerSession target = session;
    if (closed.get() || target == null) {
      return Mono.error(new IllegalStateException("the in-process MCP server is closed"));
    }
    return target.handle(message);
  }

  private Mono<Void> toClient(McpSchema.JSONRPCMessage message) {
    var handler = client;
    if (closed.get() || handler == null) {
      return Mono.empty();
    }
    // The client's session answers a request of the server's (an elicitation, say) itself,
    // through its own sendMessage.
    return handler.apply(Mono.just(message)).then();
  }

  private final class ServerSide implements McpServerTransportProvider {
    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
      session = factory.create(new ServerTransport());
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
      McpServerSession s = session;
      return s == null ? Mono.empty() : s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> closed.set(true));
    }
  }

  private final class ServerTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return toClient(message);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(() -> closed.set(true));
    }
  }

  private final class ClientSide implements McpClientTransport {
    @Override
    public Mono<Void> connect(
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
      return Mono.fromRunnable(() -> client = handler);
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return toServer(message);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.fromRunnable(
          () -> {
            closed.set(true);
            calls.values().forEach(CancellationSignal::cancel);
            calls.clear();
          });
    }
  }
}
