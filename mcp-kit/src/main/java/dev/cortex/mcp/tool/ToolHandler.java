package dev.cortex.mcp.tool;

/** The work of one tool. Returns a record (or map) matching the tool's output schema. */
@FunctionalInterface
public interface ToolHandler {
  Object handle(ToolCall call);
}
