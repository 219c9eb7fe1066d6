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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started process, the group it leads and its other descendants (those that started a session of
 * their own: see {@link Lineage}). Its output is read as it arrives (each stream on a thread of its
 * own, given to the listener and captured); a monitor ends the group and the descendants when the
 * timeout passes or, unless the spec keeps the group, when the leader exits; then the result is
 * complete. They are also ended by {@link #terminate()}, by an interrupt of {@link #await()} and
 * when the JVM exits.
 */
public final class RunningProcess {
  private static final Logger log = LoggerFactory.getLogger(RunningProcess.class);

  /** How long output may still arrive after the group has ended (or the leader has exited). */
  private static final Duration PIPE_GRACE = Duration.ofSeconds(1);

  private static final int CHUNK = 64 * 1024;

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
  private Thread outReader;
  private Thread errReader;

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
    outReader = thread("out", () -> read(process.getInputStream(), StandardStream.STDOUT, stdout));
    errReader = thread("err", () -> read(process.getErrorStream(), StandardStream.STDERR, stderr));
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
      long deadline = System.nanoTime() + PIPE_GRACE.toNanos();
      join(outReader, deadline);
      join(errReader, deadline);
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

  private void read(InputStream in, StandardStream stream, Capturer capture) {
    byte[] chunk = new byte[CHUNK];
    boolean listening = true;
    try (in) {
      for (int n = in.read(chunk); n != -1; n = in.read(chunk)) {
        if (done) {
          continue;
        }
        capture.write(chunk, 0, n);
        if (listening) {
          try {
            listener.output(stream, chunk, 0, n);
          } catch (RuntimeException e) {
            listening = false;
            log.warn("the output listener of process {} failed; it hears no more", pid(), e);
          }
        }
      }
    } catch (IOException e) {
      // The pipe closed under us: what was read is what there is.
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
