package dev.cortex.mcp.caller;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells a tool call that its client sent {@code notifications/cancelled} for it. The transport sees
 * the request's JSON-RPC id, the tool does not: the transport marks each {@code tools/call} with a
 * token in its {@code _meta} under {@link #META_KEY} (the SDK passes {@code _meta} through to the
 * call), fires the token when the client cancels the request and closes it once it is answered.
 */
public final class CancelSignals {
  /** The {@code _meta} key of the token. */
  public static final String META_KEY = "dev.cortex/cancel";

  private final Map<String, CancellationSignal> open = new ConcurrentHashMap<>();

  /** A new token for a request about to be served. */
  public String open() {
    String token = UUID.randomUUID().toString();
    open.put(token, new CancellationSignal());
    return token;
  }

  /** The client cancelled the request that carries {@code token}. */
  public void fire(String token) {
    CancellationSignal signal = token == null ? null : open.get(token);
    if (signal != null) {
      signal.cancel();
    }
  }

  /** The request that carries {@code token} was answered (or dropped). */
  public void close(String token) {
    if (token != null) {
      open.remove(token);
    }
  }

  /** What a tool call hears of its cancellation; a call without a token hears nothing. */
  public Cancellation signal(Object token) {
    CancellationSignal signal = token instanceof String text ? open.get(text) : null;
    return signal == null ? Cancellation.NONE : signal;
  }
}
