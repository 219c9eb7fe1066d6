package dev.cortex.mcp.tool;

import dev.cortex.base.Json;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One invocation of a tool: arguments already validated against the input schema, and the context
 * the call runs in.
 */
public final class ToolCall {
  private final ToolSpec spec;
  private final JsonNode arguments;
  private final ToolContext context;

  ToolCall(ToolSpec spec, JsonNode arguments, ToolContext context) {
    this.spec = Objects.requireNonNull(spec);
    this.arguments = Objects.requireNonNull(arguments);
    this.context = Objects.requireNonNull(context);
  }

  public String toolName() {
    return spec.name();
  }

  /** The raw arguments object. */
  public JsonNode arguments() {
    return arguments;
  }

  /** The arguments bound to a record whose components mirror the input schema. */
  public <T> T arguments(Class<T> type) {
    try {
      return Json.mapper().treeToValue(arguments, type);
    } catch (JacksonException e) {
      throw ToolException.invalidArgument(
          "The arguments of " + spec.name() + " could not be read: " + e.getOriginalMessage());
    }
  }

  public ToolContext context() {
    return context;
  }

  /**
   * Applies this tool's spill limit to a piece of text output: over the limit, the text goes to
   * {@code $CORTEX_HOME/tmp/tool-results/} and a preview comes back.
   */
  public Spill.SpillableText fitText(String text) {
    return new Spill(context.home(), context.clock()).fit(spec.name(), text, spec.spillLimit());
  }
}
