package dev.cortex.base;

/**
 * Tells work that its caller gave up on it: a client's {@code notifications/cancelled} for the
 * request, or a command line interrupted by the person who typed it. Work that can stop (a remote
 * command, a wait) registers what to do; work that cannot simply finishes.
 */
public interface Cancellation {
  /** Whether the caller has cancelled. */
  boolean isCancelled();

  /**
   * Runs {@code action} once when the caller cancels, at once if it already has. The returned
   * handle unregisters the action (for work that finished first); closing it twice is harmless.
   */
  Registration onCancel(Runnable action);

  /** Undoes an {@link #onCancel} registration. */
  @FunctionalInterface
  interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /** A caller that never cancels. */
  Cancellation NONE =
      new Cancellation() {
        @Override
        public boolean isCancelled() {
          return false;
        }

        @Override
        public Registration onCancel(Runnable action) {
          return () -> {};
        }
      };
}
