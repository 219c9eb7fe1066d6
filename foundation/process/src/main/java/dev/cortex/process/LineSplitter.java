package dev.cortex.process;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Splits one stream's chunks (as an {@link OutputListener} gets them) into UTF-8 lines, without
 * their {@code \n} or {@code \r\n}. A line longer than the limit is dropped whole and reported to
 * {@code oversized}. Not thread-safe: feed it from one reader.
 */
public final class LineSplitter {
  private final int maxBytes;
  private final Consumer<String> sink;
  private final Runnable oversized;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean tooLong;

  public LineSplitter(int maxBytes, Consumer<String> sink, Runnable oversized) {
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes must be positive");
    }
    this.maxBytes = maxBytes;
    this.sink = sink;
    this.oversized = oversized;
  }

  /** Takes the next chunk of the stream. */
  public void accept(byte[] bytes, int offset, int length) {
    int start = offset;
    int end = offset + length;
    for (int i = offset; i < end; i++) {
      if (bytes[i] == '\n') {
        append(bytes, start, i - start);
        emit();
        start = i + 1;
      }
    }
    append(bytes, start, end - start);
  }

  private void append(byte[] bytes, int offset, int length) {
    if (tooLong || line.size() + (long) length > maxBytes) {
      tooLong = true;
      line.reset();
      return;
    }
    line.write(bytes, offset, length);
  }

  private void emit() {
    if (tooLong) {
      oversized.run();
    } else {
      String text = line.toString(StandardCharsets.UTF_8);
      sink.accept(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
    }
    line.reset();
    tooLong = false;
  }
}
