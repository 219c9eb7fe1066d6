package dev.cortex.sessions.backend;

import dev.cortex.process.ProcessResult;
import dev.cortex.process.RunningProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn that is one process: its input lines are written to standard input, its events parsed from
 * standard output, and its end is the program's {@code end} (or {@code result}) event, else the
 * program's exit. Stopping ends the process group. Shared by the process-per-turn backends.
 */
final class ProcessTurn implements RunningTurn {
  private static final Logger log = LoggerFactory.getLogger(ProcessTurn.class);

  private final RunningProcess process;
  private final Backend.TurnEvents events;
  private final Function<String, String> injectLine;
  private final CompletableFuture<BackendEvent.End> ended = new CompletableFuture<>();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /**
   * @param injectLine turns an injected message into the line the program reads
   */
  ProcessTurn(
      RunningProcess process, Backend.TurnEvents events, Function<String, String> injectLine) {
    this.process = process;
    this.events = events;
    this.injectLine = injectLine;
  }

  /** Writes one line to the program. */
  synchronized boolean write(String line) {
    if (ended.isDone()) {
      return false;
    }
    try {
      OutputStream in = process.stdin();
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Closes the program's input: the turn has ended (the program may still be finishing). */
  synchronized void closeInput() {
    try {
      process.stdin().close();
    } catch (IOException e) {
      // already closed
    }
  }

  /** Sends an event, unless the turn already ended (null events are nothing to send). */
  void event(BackendEvent event) {
    if (event != null && !ended.isDone()) {
      events.event(event);
    }
  }

  /** Ends the turn with {@code end}, once: later ends are dropped. */
  void end(BackendEvent.End end) {
    synchronized (this) {
      if (ended.isDone()) {
        return;
      }
      closeInput();
      ended.complete(stopped.get() ? BackendEvent.End.stopped() : end);
    }
    events.event(ended.join());
  }

  /**
   * Waits for the program's exit; {@code flush} then gives the last output line a chance; ends the
   * turn if the program did not, with {@code stderrTail} of its result in the message.
   */
  void watch(Runnable flush, Function<ProcessResult, String> stderrTail) {
    Thread watcher =
        new Thread(
            () -> {
              try {
                ProcessResult result = process.await();
                flush.run();
                if (!ended.isDone()) {
                  String tail = stderrTail.apply(result);
                  end(
                      BackendEvent.End.failed(
                          "the backend exited with code "
                              + result.exitCode()
                              + " before the turn ended"
                              + (tail.isBlank() ? "" : ": " + tail)));
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                end(BackendEvent.End.failed("interrupted"));
              } catch (RuntimeException e) {
                log.warn("watching a backend process failed", e);
                end(BackendEvent.End.failed("the backend could not be watched"));
              }
            },
            "cortex-turn-watch");
    watcher.setDaemon(true);
    watcher.start();
  }

  @Override
  public boolean injects() {
    return true;
  }

  @Override
  public boolean inject(String text) {
    return write(injectLine.apply(text));
  }

  @Override
  public void stop() {
    stopped.set(true);
    process.terminate();
    end(BackendEvent.End.stopped());
  }

  @Override
  public Optional<BackendEvent.End> await(Duration limit) throws InterruptedException {
    try {
      return Optional.of(ended.get(limit.toMillis(), TimeUnit.MILLISECONDS));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (ExecutionException e) {
      return Optional.of(BackendEvent.End.failed(String.valueOf(e.getCause())));
    }
  }

  /** The process, to end it when the turn ended but it lingers. */
  RunningProcess process() {
    return process;
  }
}
