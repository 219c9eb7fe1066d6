package dev.cortex.process;

import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Objects;

/**
 * What was kept of one output stream: its first bytes ({@code head}), its last bytes ({@code tail},
 * which follow the head directly unless bytes were omitted between them) and how many bytes the
 * stream carried in all.
 */
public record Capture(byte[] head, byte[] tail, long totalBytes) {
  /** Nothing was written. */
  public static final Capture EMPTY = new Capture(new byte[0], new byte[0], 0);

  public Capture {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(tail, "tail");
    if (totalBytes < (long) head.length + tail.length) {
      throw new IllegalArgumentException(
          "totalBytes " + totalBytes + " is less than the bytes kept");
    }
    head = head.clone();
    tail = tail.clone();
  }

  @Override
  public byte[] head() {
    return head.clone();
  }

  @Override
  public byte[] tail() {
    return tail.clone();
  }

  /** How many bytes between head and tail were not kept. */
  public long omittedBytes() {
    return totalBytes - head.length - tail.length;
  }

  /** Whether bytes were left out between head and tail. */
  public boolean truncated() {
    return omittedBytes() > 0;
  }

  /** Everything kept, head then tail, without any marker. */
  public byte[] bytes() {
    byte[] all = Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  /**
   * The kept bytes decoded: the head, then, when bytes were omitted, one line {@code [... N bytes
   * omitted ...]}, then the tail. A character cut at either edge decodes as a replacement
   * character.
   */
  public String text(Charset charset) {
    if (!truncated()) {
      return new String(bytes(), charset);
    }
    String first = new String(head, charset);
    String marker = "[... " + omittedBytes() + " bytes omitted ...]";
    String separator = first.isEmpty() || first.endsWith("\n") ? "" : "\n";
    return first + separator + marker + "\n" + new String(tail, charset);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Capture that
        && totalBytes == that.totalBytes
        && Arrays.equals(head, that.head)
        && Arrays.equals(tail, that.tail);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(head) + Arrays.hashCode(tail)) + Long.hashCode(totalBytes);
  }

  @Override
  public String toString() {
    return "Capture[head="
        + head.length
        + " B, tail="
        + tail.length
        + " B, total="
        + totalBytes
        + " B]";
  }
}
