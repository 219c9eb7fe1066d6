package dev.cortex.base;

import java.util.Objects;

/**
 * A failure with a stable, machine-readable code (e.g. {@code UNAVAILABLE}, see {@link ErrorCodes})
 * and a sentence that tells the caller what to fix. A tool renders it as an {@code isError} result;
 * the CLI prints the same code and message and exits non-zero. It carries no stack trace: the
 * message is the whole story.
 */
public class CodedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;

  public CodedException(String code, String message) {
    super(Objects.requireNonNull(message, "message"), null, false, false);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** The stable, machine-readable error code, e.g. {@code INVALID_ARGUMENT}. */
  public final String code() {
    return code;
  }
}
