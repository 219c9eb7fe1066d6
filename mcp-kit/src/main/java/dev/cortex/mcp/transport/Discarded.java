package dev.cortex.mcp.transport;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.OutputStream;
import java.io.PrintWriter;

/** A response that goes nowhere: status, headers and body are dropped. */
final class Discarded extends HttpServletResponseWrapper {
  private final PrintWriter writer = new PrintWriter(OutputStream.nullOutputStream());

  Discarded(HttpServletResponse response) {
    super(response);
  }

  @Override
  public void setStatus(int status) {}

  @Override
  public void sendError(int status) {}

  @Override
  public void sendError(int status, String message) {}

  @Override
  public void setHeader(String name, String value) {}

  @Override
  public void addHeader(String name, String value) {}

  @Override
  public void setIntHeader(String name, int value) {}

  @Override
  public void setContentType(String type) {}

  @Override
  public void setCharacterEncoding(String charset) {}

  @Override
  public void setContentLength(int length) {}

  @Override
  public void setContentLengthLong(long length) {}

  @Override
  public void flushBuffer() {}

  @Override
  public void reset() {}

  @Override
  public void resetBuffer() {}

  @Override
  public boolean isCommitted() {
    return false;
  }

  @Override
  public PrintWriter getWriter() {
    return writer;
  }

  @Override
  public ServletOutputStream getOutputStream() {
    return new ServletOutputStream() {
      @Override
      public void write(int b) {}

      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setWriteListener(WriteListener listener) {}
    };
  }
}
