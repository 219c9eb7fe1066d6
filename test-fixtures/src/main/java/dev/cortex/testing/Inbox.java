package dev.cortex.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The lines that reach a {@link ScriptedAgent} after its turn line: {@code inject} messages are
 * kept in order; the end of standard input (the turn ended or was stopped) wakes every wait.
 */
final class Inbox {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final List<String> injected = new ArrayList<>();
  private boolean closed;

  /** Reads {@code in} to its end on a daemon thread. */
  static Inbox reading(BufferedReader in) {
    Inbox inbox = new Inbox();
    Thread reader =
        new Thread(
            () -> {
              try {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                  inbox.line(line);
                }
              } catch (IOException e) {
                // the input went away: the same as its end
              }
              inbox.close();
            },
            "scripted-agent-inbox");
    reader.setDaemon(true);
    reader.start();
    return inbox;
  }

  private void line(String line) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (RuntimeException e) {
      return;
    }
    if (node != null && node.path("type").asString("").equals("inject")) {
      synchronized (this) {
        injected.add(node.path("text").asString(""));
        notifyAll();
      }
    }
  }

  private synchronized void close() {
    closed = true;
    notifyAll();
  }

  synchronized boolean closed() {
    return closed;
  }

  /** The messages injected so far. */
  synchronized List<String> injected() {
    return List.copyOf(injected);
  }

  /**
   * Waits until {@code count} messages were injected in all, the input ends, or {@code timeoutMs}
   * passes.
   *
   * @return whether {@code count} messages arrived
   */
  synchronized boolean awaitInjected(int count, long timeoutMs) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (injected.size() < count && !closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return injected.size() >= count;
  }

  /** Waits {@code ms}, or less when the input ends. */
  synchronized void sleep(long ms) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    while (!closed) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }
}
