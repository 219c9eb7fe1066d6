package dev.cortex.mcp.transport;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The request being served, turned into a DELETE of {@code session}: how the guard has the SDK's
 * servlet close a session (expired, or making room) from within another request.
 */
final class SessionDelete extends HttpServletRequestWrapper {
  private final String session;

  SessionDelete(HttpServletRequest request, String session) {
    super(request);
    this.session = session;
  }

  @Override
  public String getMethod() {
    return "DELETE";
  }

  @Override
  public String getHeader(String name) {
    if (HttpCancellation.SESSION_HEADER.equalsIgnoreCase(name)) {
      return session;
    }
    if (HttpGuard.PROTOCOL_HEADER.equalsIgnoreCase(name)) {
      return null;
    }
    return super.getHeader(name);
  }

  @Override
  public Enumeration<String> getHeaders(String name) {
    String value = getHeader(name);
    return value == null
        ? Collections.emptyEnumeration()
        : Collections.enumeration(java.util.List.of(value));
  }
}
