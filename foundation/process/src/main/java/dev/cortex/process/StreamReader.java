package dev.cortex.process;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one output stream of a process to its end, chunk by chunk, into its capture and its
 * listener (until {@code done} says the rest is dropped), and tells how long it has been waiting
 * for output that does not come.
 */
final class StreamReader implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(StreamReader.class);

  private static final int CHUNK = 64 * 1024;

  private static final long HANDLING = -1;

  private final InputStream in;
  private final StandardStream stream;
  private final Capturer capture;
  private final OutputListener listener;
  private final BooleanSupplier done;
  private final long pid;

  /** When the reader began to wait for the next chunk (nanoTime), or HANDLING while it has one. */
  private volatile long waitingSince = HANDLING;

  StreamReader(
      InputStream in,
      StandardStream stream,
      Capturer capture,
      OutputListener listener,
      BooleanSupplier done,
      long pid) {
    this.in = in;
    this.stream = stream;
    this.capture = capture;
    this.listener = listener;
    this.done = done;
    this.pid = pid;
  }

  @Override
  public void run() {
    byte[] chunk = new byte[CHUNK];
    boolean listening = true;
    try (in) {
      while (true) {
        waitingSince = System.nanoTime();
        int n = in.read(chunk);
        waitingSince = HANDLING;
        if (n == -1) {
          return;
        }
        if (done.getAsBoolean()) {
          continue;
        }
        capture.write(chunk, 0, n);
        if (listening) {
          try {
            listener.output(stream, chunk, 0, n);
          } catch (RuntimeException e) {
            listening = false;
            log.warn("the output listener of process {} failed; it hears no more", pid, e);
          }
        }
      }
    } catch (IOException e) {
      // The pipe closed under us: what was read is what there is.
    }
  }

  /** Whether the reader has been waiting for output for {@code quiet} or longer, none coming. */
  boolean quietFor(Duration quiet) {
    long since = waitingSince;
    return since != HANDLING && System.nanoTime() - since >= quiet.toNanos();
  }
}
