package dev.cortex.mcp.transport;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.mcp.caller.CancelSignals;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests of one MCP session that still await their response, each with its cancellation: the
 * client's {@code notifications/cancelled} trips it, the request's work hears of it through {@link
 * #cancellation}, and the transport sends neither the response nor the progress of a cancelled
 * request (its work may still finish). {@code initialize} cannot be cancelled; a cancel for an id
 * not in flight is ignored.
 */
final class InFlightRequests {
  static final String CANCELLED = "notifications/cancelled";

  private final Map<Id, Request> requests = new ConcurrentHashMap<>();
  private final Map<Id, Id> progressTokens = new ConcurrentHashMap<>();

  /**
   * A JSON-RPC id or progress token, compared by value: {@code 7}, {@code 7L} and {@code 7.0} are
   * one id, {@code "7"} another.
   */
  record Id(String text) {
    static Id of(Object value) {
      if (value instanceof Number number) {
        try {
          return new Id(
              "n" + new BigDecimal(number.toString()).stripTrailingZeros().toPlainString());
        } catch (NumberFormatException e) {
          return new Id("n" + number);
        }
      }
      return value instanceof String string ? new Id("s" + string) : null;
    }
  }

  /** A request in flight: whether it may be cancelled, its progress token, its cancellation. */
  private record Request(boolean cancellable, Id progressToken, CancellationSignal signal) {}

  /**
   * Copies the id of {@code call} (a {@code tools/call}) into its {@code _meta} under {@link
   * CancelSignals#META_KEY}, for the tool to ask for its {@link #cancellation}. A call whose id,
   * params or {@code _meta} cannot carry it is left as it is.
   *
   * @return whether the call was marked
   */
  @SuppressWarnings("unchecked")
  static boolean markCall(Inbound.Message call) {
    if (Id.of(call.id()) == null || !(call.params() instanceof Map<?, ?> params)) {
      return false;
    }
    Object meta = params.get("_meta");
    if (meta != null && !(meta instanceof Map)) {
      return false;
    }
    Map<String, Object> marked =
        meta == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<String, Object>) meta);
    marked.put(CancelSignals.META_KEY, call.id());
    ((Map<String, Object>) params).put("_meta", marked);
    return true;
  }

  /** Records that the request {@code id} is being handled. */
  void start(Object id, String method, Object progressToken) {
    Id key = Id.of(id);
    if (key == null) {
      return;
    }
    Id token = Id.of(progressToken);
    requests.put(key, new Request(!"initialize".equals(method), token, new CancellationSignal()));
    if (token != null) {
      progressTokens.put(token, key);
    }
  }

  /**
   * Cancels the request {@code id}, if it is in flight and may be cancelled: what its work
   * registered with its {@link #cancellation} runs now, on this thread.
   *
   * @return whether it was cancelled
   */
  boolean cancel(Object id) {
    Id key = Id.of(id);
    if (key == null) {
      return false;
    }
    Request request = requests.get(key);
    if (request == null || !request.cancellable()) {
      return false;
    }
    request.signal().cancel();
    return true;
  }

  /**
   * What the work of the request {@code id} hears of its cancellation; a request not in flight (or
   * {@code initialize}) hears nothing.
   */
  Cancellation cancellation(Object id) {
    Id key = Id.of(id);
    Request request = key == null ? null : requests.get(key);
    return request == null || !request.cancellable() ? Cancellation.NONE : request.signal();
  }

  /** Whether the client cancelled the request {@code id}, which is still in flight. */
  boolean isCancelled(Object id) {
    return cancelled(Id.of(id));
  }

  /** Whether progress under {@code progressToken} belongs to a request the client cancelled. */
  boolean isProgressOfCancelled(Object progressToken) {
    Id token = Id.of(progressToken);
    return cancelled(token == null ? null : progressTokens.get(token));
  }

  private boolean cancelled(Id key) {
    Request request = key == null ? null : requests.get(key);
    return request != null && request.signal().isCancelled();
  }

  /**
   * Forgets the request {@code id}: its response was sent or dropped.
   *
   * @return whether it was in flight
   */
  boolean finish(Object id) {
    Id key = Id.of(id);
    Request request = key == null ? null : requests.remove(key);
    if (request == null) {
      return false;
    }
    if (request.progressToken() != null) {
      progressTokens.remove(request.progressToken(), key);
    }
    synchronized (this) {
      notifyAll();
    }
    return true;
  }

  boolean isEmpty() {
    return requests.isEmpty();
  }

  int size() {
    return requests.size();
  }

  /**
   * Waits until no request is in flight or {@code nanos} have passed.
   *
   * @return whether none is in flight
   */
  boolean awaitEmpty(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    synchronized (this) {
      while (!requests.isEmpty()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        wait(Math.max(1, left / 1_000_000));
      }
    }
    return true;
  }
}
