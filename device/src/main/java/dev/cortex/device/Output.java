package dev.cortex.device;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Turns a process's output bytes into text chunks for the hub as they arrive: UTF-8 decoded across
 * chunk boundaries (a character split between two reads is kept for the next), malformed bytes
 * replaced, and no more than what is left of the command's allowance streamed (the streams of one
 * command share it; the result carries the capture anyway).
 */
final class Output {
  private final String stream;
  private final BiConsumer<String, String> sink;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private final AtomicLong left;
  private ByteBuffer carry = ByteBuffer.allocate(0);

  /**
   * @param left characters that may still be streamed, shared by the command's streams
   */
  Output(String stream, AtomicLong left, BiConsumer<String, String> sink) {
    this.stream = stream;
    this.left = left;
    this.sink = sink;
  }

  synchronized void accept(byte[] bytes, int offset, int length) {
    if (left.get() <= 0) {
      return;
    }
    ByteBuffer in = ByteBuffer.allocate(carry.remaining() + length);
    in.put(carry).put(bytes, offset, length).flip();
    CharBuffer out = CharBuffer.allocate(in.remaining() + 1);
    decoder.decode(in, out, false);
    carry = ByteBuffer.allocate(in.remaining()).put(in).flip();
    out.flip();
    if (out.hasRemaining()) {
      String text = out.toString();
      left.addAndGet(-text.length());
      sink.accept(stream, text);
    }
  }
}
