package dev.cortex.workflows.remote;

import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.process.StandardStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A program started through {@link Processes} (in a group of its own, ended with the JVM), seen as
 * the {@link Process} that JGit drives: standard input kept open, standard output and error as
 * streams that end once the process has ended and its output has been read. Output waits in memory
 * until it is read, so nothing of it is lost however slowly it is read.
 */
final class StreamedProcess extends Process {
  private final RunningProcess running;
  private final Output stdout;
  private final Output stderr;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();

  private StreamedProcess(RunningProcess running, Output stdout, Output stderr) {
    this.running = running;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** Starts {@code command} with {@code environment}, nothing captured beyond the streams. */
  static StreamedProcess start(List<String> command, Map<String, String> environment)
      throws IOException {
    Output stdout = new Output();
    Output stderr = new Output();
    OutputListener listener =
        (stream, bytes, offset, length) ->
            (stream == StandardStream.STDOUT ? stdout : stderr).add(bytes, offset, length);
    RunningProcess running =
        Processes.start(
            ProcessSpec.builder(command, environment).stdinOpen().capture(0, 0).build(), listener);
    StreamedProcess process = new StreamedProcess(running, stdout, stderr);
    Thread waiter = new Thread(process::awaitEnd, "cortex-process-" + running.pid() + "-streams");
    waiter.setDaemon(true);
    waiter.start();
    return process;
  }

  /** Waits for the end, then ends both streams and records the exit code. */
  private void awaitEnd() {
    try {
      int code = running.await().exitCode();
      stdout.end();
      stderr.end();
      exit.complete(code);
    } catch (InterruptedException | RuntimeException e) {
      stdout.end();
      stderr.end();
      exit.completeExceptionally(e);
    }
  }

  @Override
  public OutputStream getOutputStream() {
    return running.stdin();
  }

  @Override
  public InputStream getInputStream() {
    return stdout;
  }

  @Override
  public InputStream getErrorStream() {
    return stderr;
  }

  @Override
  public int waitFor() throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the process could not be followed", e.getCause());
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    try {
      exit.get(timeout, unit);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("the process could not be followed", e.getCause());
    }
  }

  @Override
  public int exitValue() {
    if (!exit.isDone()) {
      throw new IllegalThreadStateException("the process has not ended");
    }
    return exit.join();
  }

  @Override
  public void destroy() {
    running.terminate();
  }

  @Override
  public boolean isAlive() {
    return running.isAlive();
  }

  @Override
  public long pid() {
    return running.pid();
  }

  /** A stream of what the process wrote, chunk by chunk as it arrived; ended by {@link #end}. */
  static final class Output extends InputStream {
    private static final byte[] END = new byte[0];

    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    void add(byte[] bytes, int offset, int length) {
      chunks.add(Arrays.copyOfRange(bytes, offset, offset + length));
    }

    void end() {
      chunks.add(END);
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
    }

    @Override
    public synchronized int read(byte[] into, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      while (position == current.length) {
        if (ended) {
          return -1;
        }
        try {
          current = chunks.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while reading the process's output");
        }
        position = 0;
        ended = current == END;
      }
      int n = Math.min(length, current.length - position);
      System.arraycopy(current, position, into, offset, n);
      position += n;
      return n;
    }
  }
}
