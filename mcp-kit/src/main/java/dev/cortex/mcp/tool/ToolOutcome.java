package dev.cortex.mcp.tool;

import dev.cortex.base.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** What a tool call produced: a structured result, or a coded error. */
public sealed interface ToolOutcome {

  /** The JSON object returned to the caller (the result, or the error body). */
  JsonNode body();

  /** The body as compact JSON text: the {@code content} mirror of {@code structuredContent}. */
  default String text() {
    return Json.write(body());
  }

  boolean isError();

  /**
   * A successful call: its body, the body as JSON text (written once), and any content beyond the
   * structured result.
   */
  record Success(JsonNode body, String text, List<Content> content) implements ToolOutcome {
    public Success {
      content = List.copyOf(content);
    }

    public Success(JsonNode body) {
      this(body, Json.write(body), List.of());
    }

    public Success(JsonNode body, List<Content> content) {
      this(body, Json.write(body), content);
    }

    @Override
    public boolean isError() {
      return false;
    }
  }

  /** A failed call with its stable code and a message for the caller. */
  record Failure(String code, String message) implements ToolOutcome {
    @Override
    public JsonNode body() {
      Map<String, String> error = new LinkedHashMap<>();
      error.put("code", code);
      error.put("message", message);
      return Json.tree(Map.of("error", error));
    }

    @Override
    public boolean isError() {
      return true;
    }
  }
}
