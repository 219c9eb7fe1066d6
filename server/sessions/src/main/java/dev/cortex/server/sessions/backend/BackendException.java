package dev.cortex.server.sessions.backend;

/** A turn that could not start: a sentence for the person, without internals. */
public final class BackendException extends Exception {
  private static final long serialVersionUID = 1L;

  public BackendException(String message) {
    super(message, null, false, false);
  }
}
