package dev.cortex.server.waitpoints;

import java.util.Objects;

/**
 * A waitpoint request or signal that is refused: a stable code (those of {@link
 * dev.cortex.protocol.webhook.Signals.Codes} and {@link dev.cortex.protocol.webhook.Waits.Codes},
 * or {@code INVALID_ARGUMENT}) and a sentence that says what to fix. Nothing was written.
 */
public final class WaitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";

  private final String code;

  public WaitException(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public String code() {
    return code;
  }

  static WaitException invalid(String message) {
    return new WaitException(INVALID_ARGUMENT, message);
  }
}
