package dev.cortex.server.sessions.backend;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One turn of the command protocol's output, read line by line into the turn's events. The first
 * line says how the program takes messages: a {@code hello} whose {@code capabilities} include
 * {@code ack} is a {@link BackendEvent.Handshake} that acknowledges (its {@code ack} lines are then
 * {@link BackendEvent.Acked}); any other first line is a handshake that does not (a program of
 * protocol 1), read as usual after it. A line that is no event of the protocol is a note.
 */
final class CommandStream {
  private static final Logger log = LoggerFactory.getLogger(CommandStream.class);

  private final String sessionId;
  private boolean first = true;
  private boolean acks;

  /**
   * @param sessionId the session whose turn it reads, for the log
   */
  CommandStream(String sessionId) {
    this.sessionId = sessionId;
  }

  /** The events of one line, in order; an {@link BackendEvent.End} comes last and ends the turn. */
  synchronized List<BackendEvent> accept(Lines.Line line) {
    List<BackendEvent> events = new ArrayList<>();
    if (line.text().isBlank()) {
      return events;
    }
    List<BackendEvent> notes = new ArrayList<>();
    JsonNode node = object(line.text(), notes);
    if (first) {
      first = false;
      if (node != null && node.path("type").asString("").equals("hello")) {
        acks = capabilities(node).contains("ack");
        if (!acks) {
          log.info(
              "session {}: the program's hello does not say it acknowledges messages; it gets"
                  + " none while its turn runs",
              sessionId);
        }
        events.add(new BackendEvent.Handshake(acks));
        return events;
      }
      log.info(
          "session {}: the program's first line is not a hello; it is served as protocol 1 and"
              + " gets no message while its turn runs",
          sessionId);
      events.add(new BackendEvent.Handshake(false));
    }
    events.addAll(notes);
    if (node != null) {
      events.add(event(node));
    }
    return events;
  }

  /** The line as a JSON object, or null after a note (into {@code notes}) saying why it is none. */
  private static JsonNode object(String text, List<BackendEvent> notes) {
    JsonNode node;
    try {
      node = BackendJson.MAPPER.readTree(text);
    } catch (RuntimeException e) {
      notes.add(
          new BackendEvent.Note("the backend printed a line that is not JSON: " + preview(text)));
      return null;
    }
    if (node == null || !node.isObject()) {
      notes.add(
          new BackendEvent.Note(
              "the backend printed a line that is not a JSON object: " + preview(text)));
      return null;
    }
    return node;
  }

  private static List<String> capabilities(JsonNode hello) {
    List<String> names = new ArrayList<>();
    for (JsonNode name : hello.path("capabilities")) {
      if (name.isString()) {
        names.add(name.asString());
      }
    }
    return names;
  }

  private BackendEvent event(JsonNode node) {
    String type = node.path("type").asString("");
    return switch (type) {
      case "session" -> new BackendEvent.Started(node.path("id").asString(null));
      case "text" -> new BackendEvent.Text(node.path("text").asString(""));
      case "tool_use" ->
          new BackendEvent.ToolUse(
              node.path("id").asString(null),
              node.path("name").asString(""),
              BackendJson.MAPPER.writeValueAsString(node.path("input")));
      case "tool_result" ->
          new BackendEvent.ToolResult(
              node.path("tool_use_id").asString(null),
              node.path("content").isString()
                  ? node.path("content").asString()
                  : BackendJson.MAPPER.writeValueAsString(node.path("content")),
              node.path("is_error").asBoolean(false));
      case "cost" ->
          new BackendEvent.Cost(
              node.path("model").asString(null),
              node.path("input_tokens").asLong(0),
              node.path("output_tokens").asLong(0),
              node.path("cache_read_tokens").asLong(0),
              node.path("cache_write_tokens").asLong(0),
              node.path("usd").isNumber() ? node.path("usd").asDouble() : null,
              "plan".equals(node.path("mode").asString("api")) ? "plan" : "api");
      case "ack" -> ack(node.path("id"));
      case "hello" ->
          new BackendEvent.Note("the backend printed a hello line after its first line; ignored");
      case "end" ->
          "completed".equals(node.path("status").asString(""))
              ? BackendEvent.End.completed(node.path("result").asString(null))
              : BackendEvent.End.failed(
                  node.path("error").asString("the backend reported a failure"));
      default ->
          new BackendEvent.Note("the backend printed an event of unknown type '" + type + "'");
    };
  }

  private BackendEvent ack(JsonNode id) {
    if (!acks) {
      return new BackendEvent.Note(
          "the backend acknowledged a message without saying on its first line that it"
              + " acknowledges; ignored");
    }
    if (id.isString() && !id.asString().isBlank()) {
      return new BackendEvent.Acked(id.asString());
    }
    if (id.isIntegralNumber()) {
      return new BackendEvent.Acked(id.asString());
    }
    return new BackendEvent.Note("the backend printed an ack line without an id; ignored");
  }

  private static String preview(String text) {
    return text.length() > 200 ? text.substring(0, 200) + "…" : text;
  }
}
