package dev.cortex.mcp.tool;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;

/**
 * A domain failure of a tool: a stable code and a sentence that tells the caller what to fix.
 * Rendered as an {@code isError} result over MCP and as the same code and message by the CLI.
 */
public final class ToolException extends CodedException {
  private static final long serialVersionUID = 1L;

  public ToolException(String code, String message) {
    super(code, message);
  }

  public static ToolException invalidArgument(String message) {
    return new ToolException(ErrorCodes.INVALID_ARGUMENT, message);
  }

  public static ToolException invalidReference(String message) {
    return new ToolException(ErrorCodes.INVALID_REFERENCE, message);
  }
}
