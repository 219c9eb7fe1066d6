package dev.cortex.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A started process, the group it leads and its other descendants (those that started a session of
 * their own: see {@link Lineage}). Its output is read as it arrives (each stream on a thread of its
 * own, given to the listener and captured); a monitor ends the group and the descendants when the
 * timeout passes or, unless the spec keeps the group, when the leader exits; then the result is
 * complete. They are also ended by {@link #terminate()}, by an interrupt of {@link #await()} and
 * when the JVM exits.
 */
public final class RunningProcess {
  /**
   * How long output may still arrive after the group has ended (or the leader has exited); with
   * {@link ProcessSpec#outputDrain}, how long the pipes may stay quiet before reading stops.
   */
  private static final Duration PIPE_GRACE = Duration.ofSeconds(1);

  private final Process process;
  private final ProcessSpec spec;
  private final long groupId;
  private final Instant startedAt;
  private final long startNanos;
  private final Capturer stdout;
  private final Capturer stderr;
  private final OutputListener listener;
  private final Lineage lineage;
  private final CompletableFuture<ProcessResult> result = new CompletableFuture<>();
  private final AtomicBoolean ending = new AtomicBoolean();
  private final Object endLock = new Object();
  private volatile boolean terminated;
  private volatile boolean timedOut;
  private volatile boolean done;
  private StreamReader outReader;
  private StreamReader errReader;
  private Thread outThread;
  private Thread errThread;

  RunningProcess(Process process, ProcessSpec spec, long groupId, OutputListener listener) {
    this.process = process;
    this.spec = spec;
    this.groupId = groupId;
    this.startNanos = System.nanoTime();
    this.startedAt = process.toHandle().info().startInstant().orElse(Instant.now());
    this.stdout = new Capturer(spec.headBytes(), spec.tailBytes());
    this.stderr = new Capturer(spec.headBytes(), spec.tailBytes());
    this.listener = listener;
    this.lineage = new Lineage(process.pid());
  }

  /** Starts the readers, the stdin writer and the monitor. */
  void begin() {
    outReader = reader(process.getInputStream(), StandardStream.STDOUT, stdout);
    errReader = reader(process.getErrorStream(), StandardStream.STDERR, stderr);
    outThread = thread("out", outReader);
    errThread = thread("err", errReader);
    byte[] input = spec.stdin();
    if (input != null) {
      thread("in", () -> feed(input));
    } else if (!spec.stdinOpen()) {
      closeQuietly(process.getOutputStream());
    }
    thread("monitor", this::monitor);
  }

  /** The leader's process id. */
  public long pid() {
    return process.pid();
  }

  /**
   * The process group the run lives in (the leader's pid, as it leads a session of its own), or -1
   * where runs get no group of their own (no {@code setsid}): then the leader's descendants are
   * tracked instead.
   */
  public long groupId() {
    return groupId;
  }

  /** When the leader started, as the operating system reports it (for recording the group). */
  public Instant startedAt() {
    return startedAt;
  }

  /** Whether the leader is still running. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Standard input, for a spec with {@code stdinOpen}. Closing it ends the input.
   *
   * @throws IllegalStateException when the spec did not keep standard input open
   */
  public OutputStream stdin() {
    if (!spec.stdinOpen()) {
      throw new IllegalStateException("standard input of this process is not kept open");
    }
    return process.getOutputStream();
  }

  /**
   * Waits for the end: the leader exited and the group is ended (unless the spec keeps it), or the
   * timeout ended it.
   *
   * @throws InterruptedException after the whole group was ended
   */
  public ProcessResult await() throws InterruptedException {
    try {
      return result.get();
    } catch (InterruptedException e) {
      terminate();
      throw e;
    } catch (ExecutionException e) {
      throw new IllegalStateException("the process monitor failed", e.getCause());
    }
  }

  /**
   * Waits at most {@code limit} for the end; empty when the process is still running then.
   *
   * @throws InterruptedException after the whole group was ended
   */
  public Optional<ProcessResult> await(Duration limit) throws InterruptedException {
    try {
      return Optional.of(result.get(limit.toNanos(), TimeUnit.NANOSECONDS));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      terminate();
      throw e;
    } catch (ExecutionException e) {
      throw new IllegalStateException("the process monitor failed", e.getCause());
    }
  }

  /**
   * Ends a process that reads its standard input until it closes (a stdio server, say): closes the
   * input, gives it {@code grace} to exit on its own, then {@link #terminate}s what is left. An
   * interrupt ends it at once (and is kept).
   */
  public void closeInputThenEnd(Duration grace) {
    if (spec.stdinOpen()) {
      try {
        process.getOutputStream().close();
      } catch (java.io.IOException e) {
        // already closed
      }
    }
    try {
      if (await(grace).isEmpty()) {
        terminate();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Ends the whole group and the leader's other descendants: TERM to every one, KILL to those left
   * after a short grace. Returns once they are ended; calling it again, or after the end, does
   * nothing more.
   */
  public void terminate() {
    if (result.isDone()) {
      return;
    }
    terminated = true;
    endGroup();
  }

  void markTerminated() {
    terminated = true;
  }

  /** The run's descendants by ancestry, which end with it whatever session they are in. */
  Lineage lineage() {
    return lineage;
  }

  /** Whether the spec asks for the leader's descendants of other sessions to end with the run. */
  boolean followsDescendants() {
    return spec.followDescendants();
  }

  /** The leader's handle while it runs, for signalling; null once it has been reaped. */
  ProcessHandle leader() {
    return process.isAlive() ? process.toHandle() : null;
  }

  private void endGroup() {
    synchronized (endLock) {
      ProcessGroups.end(groupId, leader(), lineage, ProcessGroups.GRACE);
    }
  }

  private void monitor() {
    try {
      boolean exited;
      if (spec.timeout() == null) {
        process.waitFor();
        exited = true;
      } else {
        exited = process.waitFor(spec.timeout().toNanos(), TimeUnit.NANOSECONDS);
      }
      if (!exited) {
        timedOut = true;
        endGroup();
        process.waitFor();
      }
      Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
      if (spec.killGroupOnExit() || timedOut || terminated) {
        endGroup();
      }
      awaitReaders();
      done = true;
      if (spec.stdinOpen()) {
        closeQuietly(process.getOutputStream());
      }
      ProcessGroups.unregister(this);
      int exitCode = timedOut ? ProcessResult.TIMEOUT_EXIT_CODE : process.exitValue();
      result.complete(
          new ProcessResult(
              exitCode, timedOut, terminated, stdout.capture(), stderr.capture(), elapsed));
    } catch (InterruptedException e) {
      // Only the JVM's end interrupts this thread.
      Thread.currentThread().interrupt();
      result.completeExceptionally(e);
    } catch (RuntimeException e) {
      ProcessGroups.unregister(this);
      result.completeExceptionally(e);
    }
  }

  private StreamReader reader(InputStream in, StandardStream stream, Capturer capture) {
    return new StreamReader(in, stream, capture, listener, () -> done, process.pid());
  }

  /**
   * Waits for the readers once the group has ended: a second at most, or, with the spec's {@code
   * outputDrain}, until they read their streams' ends, up to that bound, or the pipes have stayed
   * quiet for a second.
   */
  private void awaitReaders() throws InterruptedException {
    Duration drain = spec.outputDrain();
    if (drain == null) {
      long deadline = System.nanoTime() + PIPE_GRACE.toNanos();
      join(outThread, deadline);
      join(errThread, deadline);
      return;
    }
    long deadline = System.nanoTime() + drain.toNanos();
    drain(outThread, outReader, deadline);
    drain(errThread, errReader, deadline);
  }

  private static void drain(Thread thread, StreamReader reader, long deadline)
      throws InterruptedException {
    while (thread.isAlive() && !reader.quietFor(PIPE_GRACE) && System.nanoTime() < deadline) {
      thread.join(50);
    }
  }

  private void feed(byte[] input) {
    OutputStream in = process.getOutputStream();
    try {
      in.write(input);
      in.flush();
    } catch (IOException e) {
      // The program stopped reading (or ended): the rest of its input is not wanted.
    } finally {
      if (!spec.stdinOpen()) {
        closeQuietly(in);
      }
    }
  }

  private Thread thread(String role, Runnable body) {
    Thread thread = new Thread(body, "cortex-process-" + process.pid() + "-" + role);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static void join(Thread thread, long deadline) throws InterruptedException {
    long left = deadline - System.nanoTime();
    if (left > 0) {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException e) {
      // Already closed.
    }
  }
}
