package dev.cortex.process;

import java.util.Arrays;

/**
 * Keeps the first {@code headBytes} and the last {@code tailBytes} of a stream and counts
 * everything, in memory that grows with what arrives up to those caps: a producer is never slowed
 * by a full buffer. Safe to read while another thread writes.
 */
final class Capturer {
  private static final int FIRST_ALLOCATION = 8 * 1024;

  private final int headLimit;
  private final int tailLimit;
  private byte[] head = new byte[0];
  private int headSize;
  private byte[] tail = new byte[0];
  private int tailStart;
  private int tailSize;
  private long total;

  Capturer(int headBytes, int tailBytes) {
    this.headLimit = headBytes;
    this.tailLimit = tailBytes;
  }

  synchronized void write(byte[] bytes, int offset, int length) {
    total += length;
    int toHead = Math.min(length, headLimit - headSize);
    if (toHead > 0) {
      head = room(head, headSize + toHead, headLimit);
      System.arraycopy(bytes, offset, head, headSize, toHead);
      headSize += toHead;
      offset += toHead;
      length -= toHead;
    }
    if (length > 0 && tailLimit > 0) {
      appendToTail(bytes, offset, length);
    }
  }

  private void appendToTail(byte[] bytes, int offset, int length) {
    if (length >= tailLimit) {
      tail = room(tail, tailLimit, tailLimit);
      System.arraycopy(bytes, offset + length - tailLimit, tail, 0, tailLimit);
      tailStart = 0;
      tailSize = tailLimit;
      return;
    }
    if (tailSize + length <= tailLimit && tailStart == 0) {
      tail = room(tail, tailSize + length, tailLimit);
      System.arraycopy(bytes, offset, tail, tailSize, length);
      tailSize += length;
      return;
    }
    tail = room(tail, tailLimit, tailLimit);
    for (int i = 0; i < length; ) {
      int end = (tailStart + tailSize) % tailLimit;
      int run = Math.min(length - i, tailLimit - end);
      System.arraycopy(bytes, offset + i, tail, end, run);
      i += run;
      int overflow = Math.max(0, tailSize + run - tailLimit);
      tailSize = Math.min(tailLimit, tailSize + run);
      tailStart = (tailStart + overflow) % tailLimit;
    }
  }

  /**
   * {@code buffer}, or a larger copy holding at least {@code needed} bytes, at most {@code cap}.
   */
  private static byte[] room(byte[] buffer, int needed, int cap) {
    if (buffer.length >= needed) {
      return buffer;
    }
    long grown = Math.max((long) needed, Math.max(FIRST_ALLOCATION, 2L * buffer.length));
    return Arrays.copyOf(buffer, (int) Math.min(cap, grown));
  }

  synchronized Capture capture() {
    byte[] last = new byte[tailSize];
    int firstRun = Math.min(tailSize, tail.length - tailStart);
    System.arraycopy(tail, tailStart, last, 0, firstRun);
    System.arraycopy(tail, 0, last, firstRun, tailSize - firstRun);
    return new Capture(Arrays.copyOf(head, headSize), last, total);
  }
}
