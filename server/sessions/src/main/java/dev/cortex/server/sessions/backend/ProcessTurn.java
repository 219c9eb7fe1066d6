package dev.cortex.server.sessions.backend;

import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.process.StandardStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn that is one process: its input lines are written to standard input, its events parsed from
 * standard output, and its end is the program's {@code end} (or {@code result}) event, else the
 * program's exit (after every line it printed was handled: its spec reads the output to its end,
 * {@link #OUTPUT_DRAIN}). Stopping ends the process group. Shared by the process-per-turn backends.
 */
final class ProcessTurn implements RunningTurn {
  private static final Logger log = LoggerFactory.getLogger(ProcessTurn.class);

  /**
   * How long a turn's output is still read after its program exited (and its group was ended):
   * every line it printed is handled, however long the session takes to record them, up to this
   * bound; reading stops earlier once the pipe has been quiet for a second.
   */
  static final Duration OUTPUT_DRAIN = Duration.ofMinutes(2);

  /**
   * How long a stop waits, once the program's group ended, for the output the program printed
   * before to be handled.
   */
  static final Duration STOP_DRAIN = Duration.ofSeconds(10);

  private final RunningProcess process;
  private final Backend.TurnEvents events;
  private final BiFunction<String, String, String> injectLine;
  private final CompletableFuture<BackendEvent.End> ended = new CompletableFuture<>();
  private final AtomicBoolean stopped = new AtomicBoolean();

  /** Held while an event is delivered, so that events arrive in order and the end comes last. */
  private final Object delivery = new Object();

  private boolean finished; // guarded by delivery
  private boolean inputClosed; // guarded by this
  private volatile boolean broken; // written by the input thread

  /** How many times {@link #endAtExit} was called: only the last call's grace closes the input. */
  private final AtomicInteger graces = new AtomicInteger();

  /** The events that end the turn when the program exits without its end, or null. */
  private volatile List<BackendEvent> endAtExit;

  /** Writes the program's input, one line after the other. */
  private final ExecutorService input =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "cortex-turn-input");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * Starts {@code spec} (which must keep standard input open) as a turn: each line of its standard
   * output goes to {@code parse} with the turn, also the lines it prints before this returns; its
   * exit ends the turn if {@code parse} did not, with {@code stderrTail} of its result in the
   * message.
   *
   * @param injectLine turns an injected message (its id and text) into the line the program reads,
   *     or null when the turn can no longer take it
   * @throws IOException when the program cannot be started
   */
  static ProcessTurn start(
      ProcessSpec spec,
      Backend.TurnEvents events,
      BiFunction<String, String, String> injectLine,
      BiConsumer<Lines.Line, ProcessTurn> parse,
      Function<ProcessResult, String> stderrTail)
      throws IOException {
    CompletableFuture<ProcessTurn> started = new CompletableFuture<>();
    Lines lines = new Lines(line -> parse.accept(line, started.join()));
    RunningProcess process =
        Processes.start(
            spec,
            (stream, bytes, offset, length) -> {
              if (stream == StandardStream.STDOUT) {
                lines.accept(bytes, offset, length);
              }
            });
    ProcessTurn turn = new ProcessTurn(process, events, injectLine);
    started.complete(turn);
    turn.watch(lines::finish, stderrTail);
    return turn;
  }

  /**
   * @param injectLine turns an injected message (its id and text) into the line the program reads,
   *     or null when the turn can no longer take it
   */
  ProcessTurn(
      RunningProcess process,
      Backend.TurnEvents events,
      BiFunction<String, String, String> injectLine) {
    this.process = process;
    this.events = events;
    this.injectLine = injectLine;
  }

  /**
   * Queues one line for the program; false once its input is closed. Lines are written in order by
   * the turn's input thread, so that a program that does not read yet holds up neither the caller
   * nor the reading of its output; a line the program can no longer take is dropped (a message in
   * it is never acknowledged, so it goes back to the queue when the turn ends).
   */
  synchronized boolean write(String line) {
    if (inputClosed) {
      return false;
    }
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    input.execute(() -> send(bytes));
    return true;
  }

  private void send(byte[] bytes) {
    if (broken) {
      return;
    }
    try {
      OutputStream in = process.stdin();
      in.write(bytes);
      in.flush();
    } catch (IOException e) {
      broken = true; // the program closed its input or went away; its exit ends the turn
    }
  }

  /**
   * Closes the program's input, after the lines queued before: the turn has ended (the program may
   * still be finishing).
   */
  synchronized void closeInput() {
    if (inputClosed) {
      return;
    }
    inputClosed = true;
    input.execute(
        () -> {
          try {
            process.stdin().close();
          } catch (IOException e) {
            // already closed
          }
        });
    input.shutdown();
  }

  /** Sends an event, unless the turn already ended (null events are nothing to send). */
  void event(BackendEvent event) {
    if (event == null) {
      return;
    }
    synchronized (delivery) {
      if (!finished) {
        deliver(event);
      }
    }
  }

  private void deliver(BackendEvent event) {
    try {
      events.event(event);
    } catch (RuntimeException e) {
      log.warn("the receiver of a turn's events failed on {}", event.getClass().getSimpleName(), e);
    }
  }

  /**
   * Ends the turn with {@code end}, once (later ends are dropped): closes the program's input,
   * sends the end event, and only then lets {@link #await} return.
   */
  void end(BackendEvent.End end) {
    BackendEvent.End last;
    synchronized (delivery) {
      if (finished) {
        return;
      }
      finished = true;
      closeInput();
      last = stopped.get() ? BackendEvent.End.stopped() : end;
      deliver(last);
    }
    ended.complete(last);
  }

  /**
   * The program gave the end of its turn, but may still take what was written to it: its input is
   * closed after {@code grace} (unless the turn ended), and its exit then ends the turn with {@code
   * ending} (whose last event is the end) instead of a failure. A later call replaces {@code
   * ending}, and its grace the earlier one's.
   */
  void endAtExit(List<BackendEvent> ending, Duration grace) {
    endAtExit = List.copyOf(ending);
    int round = graces.incrementAndGet();
    CompletableFuture.delayedExecutor(grace.toMillis(), TimeUnit.MILLISECONDS)
        .execute(
            () -> {
              if (graces.get() == round) { // a later call's grace replaces this one
                closeInput();
              }
            });
  }

  /** Sends {@code ending}'s events, the last (an end) ending the turn. */
  private void finish(List<BackendEvent> ending) {
    for (BackendEvent event : ending) {
      if (event instanceof BackendEvent.End end) {
        end(end);
      } else {
        event(event);
      }
    }
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
                List<BackendEvent> ending = endAtExit;
                if (!ended.isDone() && ending != null) {
                  finish(ending);
                } else if (!ended.isDone()) {
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
  public synchronized boolean inject(String id, String text) {
    if (inputClosed) {
      return false;
    }
    String line = injectLine.apply(id, text);
    return line != null && write(line);
  }

  /**
   * Ends the program's group, then lets the turn end as an exit does, once what the program printed
   * before it ended was handled (an acknowledgement among it counts); a turn whose output is not
   * handled within {@link #STOP_DRAIN} ends stopped regardless.
   */
  @Override
  public void stop() {
    stopped.set(true);
    process.terminate();
    try {
      ended.get(STOP_DRAIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      log.info("a stopped turn's last output was not handled within {}", STOP_DRAIN);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
