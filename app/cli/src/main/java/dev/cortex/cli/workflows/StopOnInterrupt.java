package dev.cortex.cli.workflows;

import dev.cortex.cli.Io;
import dev.cortex.workflows.run.RunCancellation;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Ctrl-C (or SIGTERM) on {@code cortex run}: the run is cancelled, not left behind. The JVM runs
 * this hook as it exits; the hook stops the run and waits (briefly) for it to be recorded as
 * cancelled.
 */
final class StopOnInterrupt {
  /** Who stops a run this way. */
  static final String BY = "person at the terminal (Ctrl-C on cortex run)";

  /** How long the exiting process waits for the run to end as cancelled. */
  private static final Duration WAIT = Duration.ofSeconds(20);

  private StopOnInterrupt() {}

  /**
   * Cancels {@code handle}'s run if this process is told to stop before it ends. The caller that
   * awaits the run hands its end to the returned callback, so that a process exiting right after
   * the run ended never tries to stop it.
   */
  static java.util.function.Consumer<RunRecord> install(Io io, RunHandle handle) {
    CompletableFuture<RunRecord> ended = new CompletableFuture<>();
    Thread hook =
        new Thread(
            () -> {
              if (ended.isDone()
                  && !ended.isCompletedExceptionally()
                  && ended.join().status().ended()) {
                return;
              }
              io.err().println("cortex: stopping run " + handle.runId() + " ...");
              try {
                handle.cancel(new RunCancellation(BY, Instant.now().toString(), "interrupted"));
                ended.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                io.err().println("cortex: run " + handle.runId() + " cancelled");
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (IllegalStateException e) {
                // The engine says the run cannot be stopped: it ended meanwhile.
                io.err().println("cortex: run " + handle.runId() + " had ended already");
              } catch (ExecutionException | TimeoutException | RuntimeException e) {
                io.err()
                    .println(
                        "cortex: run "
                            + handle.runId()
                            + " may not have stopped: "
                            + (e.getMessage() == null ? "no reason given" : e.getMessage()));
              }
            },
            "cortex-run-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    Thread watcher =
        new Thread(
            () -> {
              try {
                ended.complete(handle.await());
              } catch (InterruptedException | RuntimeException e) {
                ended.completeExceptionally(e);
              }
              try {
                Runtime.getRuntime().removeShutdownHook(hook);
              } catch (IllegalStateException shuttingDown) {
                // The hook is running or about to: it sees the run has ended.
              }
            },
            "cortex-run-watch");
    watcher.setDaemon(true);
    watcher.start();
    return ended::complete;
  }
}
