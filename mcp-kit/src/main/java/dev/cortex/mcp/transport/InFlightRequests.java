package dev.cortex.mcp.transport;

import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The requests of one MCP session that still await their response, and which of them the client
 * cancelled with {@code notifications/cancelled}. The work of a cancelled request may still finish,
 * but its response and its progress notifications are not sent. {@code initialize} cannot be
 * cancelled; a cancel for an id not in flight is ignored.
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

  private static final class Request {
    final boolean cancellable;
    final Id progressToken;
    volatile boolean cancelled;

    Request(boolean cancellable, Id progressToken) {
      this.cancellable = cancellable;
      this.progressToken = progressToken;
    }
  }

  /** Records that the request {@code id} is being handled. */
  void start(Object id, String method, Object progressToken) {
    Id key = Id.of(id);
    if (key == null) {
      return;
    }
    Id token = Id.of(progressToken);
    requests.put(key, new Request(!"initialize".equals(method), token));
    if (token != null) {
      progressTokens.put(token, key);
    }
  }

  /**
   * Marks the request {@code id} cancelled, if it is in flight and may be cancelled.
   *
   * @return whether it was marked
   */
  boolean cancel(Object id) {
    Id key = Id.of(id);
    if (key == null) {
      return false;
    }
    Request request = requests.get(key);
    if (request == null || !request.cancellable) {
      return false;
    }
    request.cancelled = true;
    return true;
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
    return request != null && request.cancelled;
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
    if (request.progressToken != null) {
      progressTokens.remove(request.progressToken, key);
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
