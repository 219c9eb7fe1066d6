package dev.cortex.server.sessions.backend;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Splits a process's output chunks into lines as they arrive (a line split between two reads is
 * kept for the next), each at most {@link #MAX_LINE_BYTES}; longer lines are cut and flagged.
 */
final class Lines {
  /** The longest line kept: 16 MiB. */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  /** A line, and whether it was longer than the cap. */
  record Line(String text, boolean cut) {}

  private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
  private final Consumer<Line> sink;
  private boolean cut;

  Lines(Consumer<Line> sink) {
    this.sink = sink;
  }

  synchronized void accept(byte[] bytes, int offset, int length) {
    int start = offset;
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] == '\n') {
        append(bytes, start, i - start);
        emit();
        start = i + 1;
      }
    }
    append(bytes, start, offset + length - start);
  }

  private void append(byte[] bytes, int offset, int length) {
    int room = MAX_LINE_BYTES - pending.size();
    if (length > room) {
      cut = true;
      length = Math.max(0, room);
    }
    pending.write(bytes, offset, length);
  }

  private void emit() {
    String text = pending.toString(StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    pending.reset();
    boolean wasCut = cut;
    cut = false;
    sink.accept(new Line(text, wasCut));
  }

  /** Emits what is left after the last newline, if anything. */
  synchronized void finish() {
    if (pending.size() > 0) {
      emit();
    }
  }
}
