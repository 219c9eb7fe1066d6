package dev.cortex.mcp.transport;

import dev.cortex.base.Json;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Rewrites the error responses of the SDK's servlet (which serialises whole exception objects,
 * stack traces included) and of the container into plain JSON-RPC error bodies.
 */
final class ErrorBodies extends HttpServletResponseWrapper {
  private static final Logger log = LoggerFactory.getLogger(ErrorBodies.class);

  private final HttpServletResponse response;
  private final String refusedAnswer;
  private StringWriter captured;
  private PrintWriter capturedWriter;

  /**
   * @param refusedAnswer for a client's answer to a request: what to say (with 400) when the
   *     servlet fails to take it; null for other messages
   */
  ErrorBodies(HttpServletResponse response, String refusedAnswer) {
    super(response);
    this.response = response;
    this.refusedAnswer = refusedAnswer;
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    if (getStatus() < 400) {
      return super.getWriter();
    }
    if (captured == null) {
      captured = new StringWriter();
      capturedWriter = new PrintWriter(captured);
    }
    return capturedWriter;
  }

  @Override
  public void sendError(int status) throws IOException {
    JsonRpcErrors.write(response, status, -32600, reason(status), null, null);
  }

  @Override
  public void sendError(int status, String message) throws IOException {
    JsonRpcErrors.write(
        response, status, -32600, message == null ? reason(status) : message, null, null);
  }

  void finish() throws IOException {
    if (captured == null || response.isCommitted() && response.getStatus() < 400) {
      return;
    }
    capturedWriter.flush();
    int status = response.getStatus();
    int code = -32603;
    String message = reason(status);
    try {
      JsonNode node = Json.mapper().readTree(captured.toString());
      JsonNode error = node.has("jsonRpcError") ? node.path("jsonRpcError") : node.path("error");
      if (error.path("code").isInt()) {
        code = error.path("code").asInt();
      }
      if (error.path("message").isString()) {
        message = error.path("message").asString();
      }
    } catch (RuntimeException e) {
      // not JSON: keep the generic message
    }
    if (status >= 500 && refusedAnswer != null) {
      log.debug("a client's answer was refused: {}", message);
      status = 400;
      code = Inbound.INVALID_REQUEST;
      message = refusedAnswer;
    } else if (status >= 500) {
      // The SDK's messages of internal failures name its classes: log them, say a sentence.
      log.warn("internal error answered over HTTP: {}", message);
      code = -32603;
      message = "Internal error; the server's log (stderr) has the details.";
    }
    JsonRpcErrors.write(response, status, code, message, null, null);
  }

  private static String reason(int status) {
    return switch (status) {
      case 404 -> "Not found: unknown endpoint, or a session that is unknown or expired.";
      case 405 -> "Method not allowed.";
      case 413 -> "Request body too large.";
      default -> "Request failed with HTTP status " + status + ".";
    };
  }
}
