package dev.cortex.workflows.activity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one program to its end: standard output and error are read concurrently (a program that
 * fills one pipe never blocks on it), each capped; standard input is written from its own thread.
 * An interrupt kills the program and its descendants.
 */
final class Subprocess {
  /** How long the pipes may stay open after the program exits (held by a background child). */
  private static final Duration PIPE_GRACE = Duration.ofSeconds(5);

  /** How long to wait for killed processes to go. */
  private static final Duration KILL_GRACE = Duration.ofSeconds(5);

  record Outcome(int exitCode, CappedBuffer stdout, CappedBuffer stderr) {}

  private Subprocess() {}

  /**
   * Starts {@code command} and waits for it.
   *
   * @param stdin text for standard input, or null for none
   * @throws IOException when the program cannot be started
   * @throws InterruptedException after the program and its descendants were killed
   */
  static Outcome run(
      List<String> command, Path cwd, Map<String, String> environment, String stdin, int limit)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(environment);
    if (cwd != null) {
      builder.directory(cwd.toFile());
    }
    Process process = builder.start();
    CappedBuffer stdout = new CappedBuffer(limit);
    CappedBuffer stderr = new CappedBuffer(limit);
    List<Thread> pipes =
        List.of(
            pipe("stdout", () -> stdout.drain(process.getInputStream())),
            pipe("stderr", () -> stderr.drain(process.getErrorStream())),
            pipe("stdin", () -> feed(process.getOutputStream(), stdin)));
    try {
      int exitCode = process.waitFor();
      long deadline = System.nanoTime() + PIPE_GRACE.toNanos();
      for (Thread thread : pipes) {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
      return new Outcome(exitCode, stdout, stderr);
    } catch (InterruptedException e) {
      destroyTree(process);
      throw e;
    }
  }

  /** Kills {@code process} and every descendant, and waits a little for them to go. */
  static void destroyTree(Process process) {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroyForcibly();
    descendants.forEach(ProcessHandle::destroyForcibly);
    long deadline = System.nanoTime() + KILL_GRACE.toNanos();
    awaitExit(process.toHandle(), deadline);
    descendants.forEach(handle -> awaitExit(handle, deadline));
  }

  private static void awaitExit(ProcessHandle handle, long deadline) {
    try {
      handle.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Gone or going; nothing more can be done for it.
    }
  }

  private static void feed(OutputStream in, String text) throws IOException {
    try (in) {
      if (text != null) {
        in.write(text.getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private interface Pipe {
    void transfer() throws IOException;
  }

  private static Thread pipe(String name, Pipe pipe) {
    Thread thread =
        new Thread(
            () -> {
              try {
                pipe.transfer();
              } catch (IOException e) {
                // The program closed its end or was killed: what was read is what there is.
              }
            },
            "cortex-shell-" + name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
