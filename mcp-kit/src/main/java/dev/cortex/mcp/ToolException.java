package dev.cortex.mcp;

import java.util.Objects;

/**
 * A domain failure of a tool: a stable code and a sentence that tells the caller what to fix.
 * Rendered as an {@code isError} result over MCP and as the same code and message by the CLI.
 */
public final class ToolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;

  public ToolException(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable, machine-readable error code, e.g. {@code INVALID_ARGUMENT}. */
  public String code() {
    return code;
  }

  public static ToolException invalidArgument(String message) {
    return new ToolException(ErrorCodes.INVALID_ARGUMENT, message);
  }

  public static ToolException invalidReference(String message) {
    return new ToolException(ErrorCodes.INVALID_REFERENCE, message);
  }
}
