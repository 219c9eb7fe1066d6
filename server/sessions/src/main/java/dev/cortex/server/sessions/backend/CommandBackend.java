package dev.cortex.server.sessions.backend;

import dev.cortex.process.Capture;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The {@code command} backend: each turn runs the session's program, which speaks the JSON-lines
 * protocol of {@code docs/command-backend.md}: a {@code turn} line (and {@code inject} lines) in;
 * {@code session}, {@code text}, {@code tool_use}, {@code tool_result}, {@code cost} and {@code
 * end} lines out.
 */
public final class CommandBackend implements Backend {
  public static final String NAME = "command";

  /** Standard error kept of one turn, for the failure message and the log. */
  static final int STDERR_BYTES = 64 * 1024;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RunningTurn start(TurnRequest request, TurnEvents events) throws BackendException {
    if (request.program() == null || request.program().isEmpty()) {
      throw new BackendException("The session has no program for the command backend.");
    }
    ProcessTurn running;
    try {
      running =
          ProcessTurn.start(
              ProcessSpec.builder(request.program(), request.environment())
                  .directory(request.workingDirectory())
                  .stdinOpen()
                  .capture(0, STDERR_BYTES)
                  .build(),
              events,
              CommandBackend::injectLine,
              (line, turn) -> turn.event(parse(line, turn)),
              CommandBackend::tail);
    } catch (IOException e) {
      throw new BackendException(
          "The backend program "
              + request.program().get(0)
              + " could not be started: "
              + e.getMessage());
    }
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("type", "turn");
    first.put("session_id", request.sessionId());
    first.put("prompt", request.prompt());
    first.put("resume", request.resume());
    first.put("model", request.model());
    first.put("mcp_config", request.mcpConfig().toString());
    running.write(BackendJson.MAPPER.writeValueAsString(first));
    return running;
  }

  /** The last lines of a program's standard error, for a failure message. */
  static String tail(ProcessResult result) {
    Capture err = result.stderr();
    String text = err.text(StandardCharsets.UTF_8).strip();
    String[] lines = text.split("\n");
    StringBuilder out = new StringBuilder();
    for (int i = Math.max(0, lines.length - 3); i < lines.length; i++) {
      out.append(out.length() > 0 ? " | " : "").append(lines[i].strip());
    }
    return out.length() > 500 ? out.substring(out.length() - 500) : out.toString();
  }

  static String injectLine(String text) {
    return BackendJson.MAPPER.writeValueAsString(Map.of("type", "inject", "text", text));
  }

  /** The event of one output line; a line that is no event of the protocol is a note. */
  static BackendEvent parse(Lines.Line line, ProcessTurn turn) {
    if (line.text().isBlank()) {
      return null;
    }
    JsonNode node;
    try {
      node = BackendJson.MAPPER.readTree(line.text());
    } catch (RuntimeException e) {
      return new BackendEvent.Note(
          "the backend printed a line that is not JSON: " + preview(line.text()));
    }
    if (node == null || !node.isObject()) {
      return new BackendEvent.Note(
          "the backend printed a line that is not a JSON object: " + preview(line.text()));
    }
    String type = node.path("type").asString("");
    switch (type) {
      case "session":
        return new BackendEvent.Started(node.path("id").asString(null));
      case "text":
        return new BackendEvent.Text(node.path("text").asString(""));
      case "tool_use":
        return new BackendEvent.ToolUse(
            node.path("id").asString(null),
            node.path("name").asString(""),
            BackendJson.MAPPER.writeValueAsString(node.path("input")));
      case "tool_result":
        return new BackendEvent.ToolResult(
            node.path("tool_use_id").asString(null),
            node.path("content").isString()
                ? node.path("content").asString()
                : BackendJson.MAPPER.writeValueAsString(node.path("content")),
            node.path("is_error").asBoolean(false));
      case "cost":
        return new BackendEvent.Cost(
            node.path("model").asString(null),
            node.path("input_tokens").asLong(0),
            node.path("output_tokens").asLong(0),
            node.path("cache_read_tokens").asLong(0),
            node.path("cache_write_tokens").asLong(0),
            node.path("usd").isNumber() ? node.path("usd").asDouble() : null,
            "plan".equals(node.path("mode").asString("api")) ? "plan" : "api");
      case "end":
        turn.end(
            "completed".equals(node.path("status").asString(""))
                ? BackendEvent.End.completed(node.path("result").asString(null))
                : BackendEvent.End.failed(
                    node.path("error").asString("the backend reported a failure")));
        return null;
      default:
        return new BackendEvent.Note("the backend printed an event of unknown type '" + type + "'");
    }
  }

  private static String preview(String text) {
    return text.length() > 200 ? text.substring(0, 200) + "…" : text;
  }
}
