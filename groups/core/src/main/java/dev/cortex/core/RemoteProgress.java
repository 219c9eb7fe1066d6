package dev.cortex.core;

import dev.cortex.mcp.tool.ToolContext;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;

/**
 * Turns a remote command's output events into progress notifications of the call, a few per second
 * at most, each carrying the newest output line.
 */
final class RemoteProgress {
  private static final long EVERY_NANOS = 200_000_000L;
  private static final int MAX_LINE_CHARS = 200;

  private final ToolContext.ProgressSink sink;
  private final AtomicInteger chunks = new AtomicInteger();
  private final AtomicLong last = new AtomicLong();

  RemoteProgress(ToolContext.ProgressSink sink) {
    this.sink = sink;
  }

  void event(JsonNode event) {
    if (sink == ToolContext.ProgressSink.NONE
        || !"output".equals(event.path("event").asString(""))) {
      return;
    }
    int n = chunks.incrementAndGet();
    long now = System.nanoTime();
    long before = last.get();
    if (n > 1 && now - before < EVERY_NANOS || !last.compareAndSet(before, now)) {
      return;
    }
    String data = event.path("data").asString("").strip();
    int newline = data.lastIndexOf('\n');
    String line = newline >= 0 ? data.substring(newline + 1) : data;
    sink.report(
        n, null, line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + "…" : line);
  }
}
