package dev.cortex.device;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.websocket.client.JettyUpgradeListener;
import tools.jackson.databind.JsonNode;

/**
 * How the hub refused an upgrade or an enrolment: the HTTP status, and the stable code and sentence
 * of its {@code {"error": {"code", "message"}}} body (absent when something else answered, e.g. a
 * proxy).
 *
 * @param code the refusal's code, or null
 * @param message the hub's sentence, or null
 */
record HubRefusal(int status, String code, String message) {
  /** The most of a refusal's body that is read. */
  static final int MAX_BODY_BYTES = 8192;

  /** The refusal an answer of {@code status} with {@code body} (maybe empty) is. */
  static HubRefusal of(int status, String body) {
    JsonNode error = null;
    try {
      JsonNode json = body == null || body.isBlank() ? null : WireJson.mapper().readTree(body);
      error = json == null ? null : json.path("error");
    } catch (RuntimeException e) {
      // not the hub's JSON: the status alone tells
    }
    String code = text(error, "code", 64);
    String message = text(error, "message", 1000);
    return new HubRefusal(status, code, message);
  }

  private static String text(JsonNode error, String field, int max) {
    if (error == null || !error.path(field).isString()) {
      return null;
    }
    String text = error.path(field).asString().replaceAll("\\p{Cntrl}", " ").strip();
    return text.isEmpty() ? null : text.length() > max ? text.substring(0, max) + "…" : text;
  }

  /** Whether asking again cannot help (a person must act): see {@link Hub.Refusals#isFinal}. */
  boolean isFinal() {
    return Hub.Refusals.isFinal(status, code);
  }

  /** E.g. {@code HTTP 403 HOST_NOT_ALLOWED: The hub answers to …}. */
  String describe() {
    return "HTTP "
        + status
        + (code == null ? "" : " " + code)
        + (message == null ? "" : ": " + message);
  }

  /**
   * The body of an upgrade's answer as it arrives, up to {@link #MAX_BODY_BYTES}: a refused
   * upgrade's tells why.
   */
  static final class Body implements JettyUpgradeListener {
    private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();

    @Override
    public void onHandshakeRequest(Request upgrade) {
      upgrade.onResponseContent((response, content) -> add(content));
    }

    synchronized void add(ByteBuffer chunk) {
      int room = MAX_BODY_BYTES - bytes.size();
      if (room > 0) {
        ByteBuffer view = chunk.slice();
        byte[] part = new byte[Math.min(room, view.remaining())];
        view.get(part);
        bytes.write(part, 0, part.length);
      }
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
