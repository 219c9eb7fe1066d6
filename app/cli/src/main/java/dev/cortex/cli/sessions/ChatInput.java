package dev.cortex.cli.sessions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The lines typed into {@code cortex chat}, read as they come: {@code /stop} typed while a turn is
 * followed stops it at once; every other line waits until the conversation takes it.
 */
final class ChatInput {
  private final InputStream in;
  private final Runnable stop;
  private final java.util.function.Predicate<String> inline;
  private final BlockingQueue<Optional<String>> lines = new LinkedBlockingQueue<>();
  private final AtomicBoolean following = new AtomicBoolean();

  /**
   * @param stop what {@code /stop} does while a turn is followed
   */
  ChatInput(InputStream in, Runnable stop) {
    this(in, stop, line -> false);
  }

  /**
   * @param inline takes a line typed while a turn is followed (an answer to a question, say); true
   *     when it was taken, so that it is no message
   */
  ChatInput(InputStream in, Runnable stop, java.util.function.Predicate<String> inline) {
    this.in = in;
    this.stop = stop;
    this.inline = inline;
  }

  /** Starts reading. */
  ChatInput start() {
    Thread reader = new Thread(this::read, "cortex-chat-input");
    reader.setDaemon(true);
    reader.start();
    return this;
  }

  private void read() {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (following.get() && line.strip().equals("/stop")) {
          stop.run();
        } else if (following.get() && inline.test(line)) {
          continue;
        } else {
          lines.add(Optional.of(line));
        }
      }
    } catch (IOException e) {
      // The input is gone: as if it ended.
    }
    lines.add(Optional.empty());
  }

  /** The next line, or null at the end of the input. */
  String next() throws InterruptedException {
    return lines.take().orElse(null);
  }

  /** Says whether a turn is being followed (so that {@code /stop} acts at once). */
  void following(boolean now) {
    following.set(now);
  }
}
