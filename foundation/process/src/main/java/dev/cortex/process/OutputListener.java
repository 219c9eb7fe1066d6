package dev.cortex.process;

/**
 * Hears a process's output as it arrives, chunk by chunk. Called on the stream's reader thread, in
 * order within each stream (the two streams may interleave); the bytes are valid only during the
 * call. A listener that throws is logged and not called again; capture goes on.
 */
@FunctionalInterface
public interface OutputListener {
  /** A listener that hears nothing. */
  OutputListener NONE = (stream, bytes, offset, length) -> {};

  void output(StandardStream stream, byte[] bytes, int offset, int length);
}
