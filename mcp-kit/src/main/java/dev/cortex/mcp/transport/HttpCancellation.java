package dev.cortex.mcp.transport;

import dev.cortex.base.Cancellation;
import dev.cortex.mcp.caller.CancelSignals;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code notifications/cancelled} over streamable HTTP. The SDK's servlet answers a request on the
 * SSE stream of the POST that carried it, and blocks that POST's thread until the answer is out.
 * The guard registers each request while its POST runs and hands the servlet a writer that sends
 * one SSE event per flush; once the client cancels the request, every later event of that stream
 * (progress and the response) is dropped, and the stream ends empty when the work finishes. The
 * request's work hears of the cancel through {@link #of}, from the request's own entry.
 */
final class HttpCancellation implements CancelSignals {
  static final String SESSION_HEADER = "Mcp-Session-Id";

  private final Map<String, InFlightRequests> sessions = new ConcurrentHashMap<>();

  /** A request whose POST is being served; {@link #close()} when the servlet returns. */
  final class Exchange implements AutoCloseable {
    private final String session;
    private final Object id;

    private Exchange(String session, Object id) {
      this.session = session;
      this.id = id;
    }

    boolean cancelled() {
      InFlightRequests requests = sessions.get(session);
      return requests != null && requests.isCancelled(id);
    }

    /** The response to give the servlet: its writer goes quiet once the request is cancelled. */
    HttpServletResponse wrap(HttpServletResponse response) {
      return new Muting(response, this);
    }

    @Override
    public void close() {
      sessions.computeIfPresent(
          session,
          (key, requests) -> {
            requests.finish(id);
            return requests.isEmpty() ? null : requests;
          });
    }
  }

  /**
   * Registers the request in {@code message} (a parsed body) for its session, or returns null when
   * it is no request that can be cancelled.
   */
  Exchange open(String session, Map<?, ?> message) {
    Object method = message.get("method");
    Object id = message.get("id");
    if (session == null
        || !(method instanceof String name)
        || "initialize".equals(name)
        || InFlightRequests.Id.of(id) == null) {
      return null;
    }
    sessions.compute(
        session,
        (key, requests) -> {
          InFlightRequests live = requests == null ? new InFlightRequests() : requests;
          live.start(id, name, null);
          return live;
        });
    return new Exchange(session, id);
  }

  /** Whether {@code message} is a {@code notifications/cancelled}. */
  static boolean isCancel(Map<?, ?> message) {
    return InFlightRequests.CANCELLED.equals(message.get("method")) && !message.containsKey("id");
  }

  /**
   * Applies a {@code notifications/cancelled}: the request's work hears of it at once. One for a
   * request not in flight is ignored.
   */
  boolean cancel(String session, Map<?, ?> message) {
    Object id = message.get("params") instanceof Map<?, ?> params ? params.get("requestId") : null;
    InFlightRequests requests = session == null ? null : sessions.get(session);
    return requests != null && requests.cancel(id);
  }

  @Override
  public Cancellation of(String session, Object requestId) {
    InFlightRequests requests = session == null ? null : sessions.get(session);
    return requests == null ? Cancellation.NONE : requests.cancellation(requestId);
  }

  /** Sends each event of the stream until the request is cancelled, then nothing. */
  private static final class Muting extends SseResponse {
    private final Exchange exchange;

    Muting(HttpServletResponse response, Exchange exchange) {
      super(response);
      this.exchange = exchange;
    }

    @Override
    String event(String written) {
      return exchange.cancelled() ? null : written;
    }
  }
}
