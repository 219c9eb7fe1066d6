package dev.cortex.mcp.tool;

import java.util.List;
import java.util.Objects;

/**
 * What a handler returns when its answer carries more than the structured result: images, embedded
 * resources or extra text, sent after the structured result's text mirror.
 *
 * @param structured the result matching the tool's output schema (a record or map)
 * @param content further content, in order
 */
public record ToolResult(Object structured, List<Content> content) {
  public ToolResult {
    Objects.requireNonNull(structured, "structured");
    content = List.copyOf(content);
  }

  public static ToolResult of(Object structured, Content... content) {
    return new ToolResult(structured, List.of(content));
  }
}
