package dev.cortex.base;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * Timestamps of one request as it crosses processes (an MCP server, the agent server, a device),
 * for finding where its time goes: with {@code CORTEX_HOP_TRACE} naming a file, each {@link #mark}
 * appends a line {@code <id> <hop> <microseconds since the epoch>} to it, one {@code write} with
 * {@code O_APPEND} so that the processes sharing the file do not tear each other's lines. The ids
 * are the requests' own (a remote command's id), never a secret. Without the variable it costs a
 * field read.
 */
public final class HopTrace {
  /** The environment variable naming the file the marks are appended to. */
  public static final String VARIABLE = "CORTEX_HOP_TRACE";

  private static final FileChannel OUT = open(System.getenv(VARIABLE));

  private HopTrace() {}

  /** Whether marks are written in this process. */
  public static boolean enabled() {
    return OUT != null;
  }

  /** Notes that request {@code id} reached {@code hop} now. */
  public static void mark(String id, String hop) {
    if (OUT == null || id == null) {
      return;
    }
    Instant now = Instant.now();
    long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    byte[] line = (id + ' ' + hop + ' ' + micros + '\n').getBytes(StandardCharsets.UTF_8);
    try {
      OUT.write(ByteBuffer.wrap(line));
    } catch (IOException e) {
      // A diagnostic only: a failed mark changes nothing else.
    }
  }

  private static FileChannel open(String file) {
    if (file == null || file.isBlank()) {
      return null;
    }
    try {
      return FileChannel.open(
          Path.of(file),
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.APPEND);
    } catch (IOException | RuntimeException e) {
      System.err.println("cortex: " + VARIABLE + " cannot be opened; no hops are traced");
      return null;
    }
  }
}
