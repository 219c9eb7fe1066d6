package dev.cortex.mcp.transport;

import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The response the SDK's servlet writes to, seen by the guard: every SSE event gets an id of its
 * own (the SDK gives each event of a stream the session id, where ids must be unique per stream),
 * and the session id the servlet announces is noted.
 */
final class EventIds extends SseResponse {
  private final AtomicLong ids;
  private volatile String sessionId;

  EventIds(HttpServletResponse response, AtomicLong ids) {
    super(response);
    this.ids = ids;
  }

  /** The {@code Mcp-Session-Id} the servlet set, if it set one. */
  String sessionId() {
    return sessionId;
  }

  @Override
  public void setHeader(String name, String value) {
    note(name, value);
    super.setHeader(name, value);
  }

  @Override
  public void addHeader(String name, String value) {
    note(name, value);
    super.addHeader(name, value);
  }

  private void note(String name, String value) {
    if (HttpCancellation.SESSION_HEADER.equalsIgnoreCase(name)) {
      sessionId = value;
    }
  }

  @Override
  String event(String written) {
    return renumber(written, ids);
  }

  /** The events with each {@code id:} line given the next number. */
  static String renumber(CharSequence events, AtomicLong ids) {
    StringBuilder out = new StringBuilder(events.length() + 16);
    int start = 0;
    while (start < events.length()) {
      int end = start;
      while (end < events.length() && events.charAt(end) != '\n') {
        end++;
      }
      boolean idLine =
          end - start >= 3
              && events.charAt(start) == 'i'
              && events.charAt(start + 1) == 'd'
              && events.charAt(start + 2) == ':';
      if (idLine) {
        out.append("id: ").append(ids.incrementAndGet());
      } else {
        out.append(events, start, end);
      }
      if (end < events.length()) {
        out.append('\n');
      }
      start = end + 1;
    }
    return out.toString();
  }
}
