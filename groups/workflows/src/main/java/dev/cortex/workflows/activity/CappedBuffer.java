package dev.cortex.workflows.activity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;

/**
 * Bytes kept up to a limit: what arrives past it is counted and dropped, so that a producer is
 * never blocked by a full buffer and memory stays bounded. Safe to read while another thread
 * writes.
 */
final class CappedBuffer {
  /** The most kept of one captured stream or body: 16 MiB. */
  static final int DEFAULT_LIMIT = 16 * 1024 * 1024;

  private final int limit;
  private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
  private long total;

  CappedBuffer(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("limit must not be negative");
    }
    this.limit = limit;
  }

  synchronized void write(byte[] bytes, int offset, int length) {
    int room = (int) Math.max(0, Math.min(length, limit - (long) kept.size()));
    kept.write(bytes, offset, room);
    total += length;
  }

  void write(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    write(bytes, 0, bytes.length);
  }

  /** Reads {@code in} to its end into this buffer. */
  void drain(InputStream in) throws IOException {
    byte[] chunk = new byte[8192];
    for (int n = in.read(chunk); n != -1; n = in.read(chunk)) {
      write(chunk, 0, n);
    }
  }

  /** Every byte written, kept or not. */
  synchronized long total() {
    return total;
  }

  synchronized boolean truncated() {
    return total > kept.size();
  }

  synchronized byte[] bytes() {
    return kept.toByteArray();
  }

  /** The kept bytes decoded; a character cut at the limit becomes a replacement character. */
  String text(Charset charset) {
    return new String(bytes(), charset);
  }
}
