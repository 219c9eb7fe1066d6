package dev.cortex.mcp.transport;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The response the SDK's servlet writes to, seen by the guard: every SSE event gets an id of its
 * own (the SDK gives each event of a stream the session id, where ids must be unique per stream),
 * and the session id the servlet announces is noted.
 */
final class EventIds extends HttpServletResponseWrapper {
  private final AtomicLong ids;
  private PrintWriter writer;
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
  public PrintWriter getWriter() throws IOException {
    String type = getContentType();
    if (type == null || !type.startsWith("text/event-stream")) {
      return super.getWriter();
    }
    if (writer == null) {
      writer = new PrintWriter(new Renumbering(super.getWriter(), ids));
    }
    return writer;
  }

  /**
   * Holds what is written up to each flush (the SDK flushes once per event) and sends it with each
   * {@code id:} line given the next number.
   */
  static final class Renumbering extends Writer {
    private final PrintWriter target;
    private final AtomicLong ids;
    private final StringBuilder pending = new StringBuilder();

    Renumbering(PrintWriter target, AtomicLong ids) {
      this.target = target;
      this.ids = ids;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      pending.append(chars, offset, length);
    }

    @Override
    public void flush() throws IOException {
      target.write(renumber(pending, ids));
      target.flush();
      pending.setLength(0);
      if (target.checkError()) {
        throw new IOException("client disconnected");
      }
    }

    @Override
    public void close() throws IOException {
      flush();
      target.close();
    }

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
}
