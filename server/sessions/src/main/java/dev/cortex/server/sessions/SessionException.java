package dev.cortex.server.sessions;

import java.util.Objects;

/** A request about sessions that cannot be carried out: a stable code and a sentence. */
public final class SessionException extends Exception {
  private static final long serialVersionUID = 1L;

  public static final String NOT_FOUND = "NOT_FOUND";
  public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
  public static final String BUDGET_EXCEEDED = "BUDGET_EXCEEDED";

  /** The channel is reserved for a front door of its platform ({@code web:}, {@code slack:}...). */
  public static final String RESERVED_CHANNEL = "RESERVED_CHANNEL";

  private final String code;

  public SessionException(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  public String code() {
    return code;
  }
}
