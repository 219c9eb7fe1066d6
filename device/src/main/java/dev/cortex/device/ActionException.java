package dev.cortex.device;

import dev.cortex.protocol.webhook.ErrorBody;
import java.util.Objects;

/** An action that cannot be done as asked: a stable code and a sentence for the agent. */
final class ActionException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String code;

  ActionException(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  ErrorBody body() {
    return new ErrorBody(code, getMessage());
  }

  static ActionException invalid(String message) {
    return new ActionException(ErrorBody.Codes.INVALID_ARGUMENT, message);
  }
}
