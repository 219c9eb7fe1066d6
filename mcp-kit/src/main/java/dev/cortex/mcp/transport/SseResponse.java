package dev.cortex.mcp.transport;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;

/**
 * A response whose SSE stream is seen one event at a time: the SDK's servlet flushes once per
 * event, so what is written up to each flush is handed to {@link #event} and what that returns is
 * sent. Responses of any other type (error bodies, written whole) pass through untouched.
 */
abstract class SseResponse extends HttpServletResponseWrapper {
  private PrintWriter writer;

  SseResponse(HttpServletResponse response) {
    super(response);
  }

  /** What to send for one event as the servlet wrote it; null sends nothing. */
  abstract String event(String written);

  @Override
  public PrintWriter getWriter() throws IOException {
    String type = getContentType();
    if (type == null || !type.startsWith("text/event-stream")) {
      return super.getWriter();
    }
    if (writer == null) {
      writer = new PrintWriter(new PerEvent(super.getWriter()));
    }
    return writer;
  }

  private final class PerEvent extends Writer {
    private final PrintWriter target;
    private final StringBuilder pending = new StringBuilder();

    PerEvent(PrintWriter target) {
      this.target = target;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      pending.append(chars, offset, length);
    }

    @Override
    public void flush() throws IOException {
      String sent = event(pending.toString());
      pending.setLength(0);
      if (sent != null) {
        target.write(sent);
        target.flush();
      }
      if (target.checkError()) {
        throw new IOException("client disconnected");
      }
    }

    @Override
    public void close() throws IOException {
      flush();
      target.close();
    }
  }
}
