package dev.cortex.base;

/** A configuration problem found before serving: the message tells a person what to change. */
public final class StartupException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StartupException(String message) {
    super(message, null, false, false);
  }
}
