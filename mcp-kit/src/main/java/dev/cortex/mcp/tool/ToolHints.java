package dev.cortex.mcp.tool;

/**
 * The four MCP tool annotations, always declared explicitly so that clients never fall back to
 * their defaults (which assume a destructive, open-world tool).
 */
public record ToolHints(
    boolean readOnly, boolean destructive, boolean idempotent, boolean openWorld) {

  public ToolHints {
    if (readOnly && destructive) {
      throw new IllegalArgumentException("a read-only tool cannot be destructive");
    }
  }

  /** The hints under their MCP names, e.g. {@code readOnlyHint}. */
  public java.util.Map<String, Boolean> asAnnotations() {
    java.util.Map<String, Boolean> map = new java.util.LinkedHashMap<>();
    map.put("readOnlyHint", readOnly);
    map.put("destructiveHint", destructive);
    map.put("idempotentHint", idempotent);
    map.put("openWorldHint", openWorld);
    return map;
  }

  /** A tool that only reads local state and touches nothing outside this machine. */
  public static ToolHints readOnlyLocal() {
    return new ToolHints(true, false, true, false);
  }
}
