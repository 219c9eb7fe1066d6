package dev.cortex.workflows.temporal;

import dev.cortex.workflows.run.RunCancellation;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.StepStatus;
import dev.cortex.workflows.run.TraceFiles;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TemporalFailure;
import io.temporal.failure.TerminatedFailure;
import io.temporal.failure.TimeoutFailure;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Follows a run on Temporal from the process that started it: long-polls the workflow's history,
 * and whenever the interpreter has recorded a step (a local activity's marker appears) asks it, by
 * query, for the steps recorded since; listeners hear of each as it ends, in order. When the
 * workflow closes, its result is the final record; if this home's index does not have the end yet
 * (the workers keep another home), it is written here too.
 */
final class RunFollower implements Runnable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(RunFollower.class);

  /** The pause before the first question after a step, doubled while nothing new is recorded. */
  static final long FIRST_PAUSE_MS = 20;

  /** The longest pause between questions. */
  static final long LAST_PAUSE_MS = 400;

  private final Connection connection;
  private final WorkflowExecution execution;
  private final RunListener listener;
  private final RunStore store;
  private final TraceFiles traces;
  private final Clock clock;
  private final CompletableFuture<RunRecord> done;
  private final java.util.function.Supplier<RunCancellation> cancellation;
  private RunRecord run;
  private int next;

  RunFollower(
      Connection connection,
      WorkflowExecution execution,
      RunRecord run,
      int first,
      RunListener listener,
      RunStore store,
      TraceFiles traces,
      Clock clock,
      CompletableFuture<RunRecord> done,
      java.util.function.Supplier<RunCancellation> cancellation) {
    this.connection = connection;
    this.cancellation = cancellation;
    this.execution = execution;
    this.run = run;
    this.next = first;
    this.listener = listener;
    this.store = store;
    this.traces = traces;
    this.clock = clock;
    this.done = done;
  }

  @Override
  public void run() {
    try {
      RunRecord planned = run;
      tell(() -> listener.planned(planned));
      RunRecord ended = follow();
      for (int position = next; position < ended.steps().size(); position++) {
        if (ended.steps().get(position).status() == StepStatus.PENDING) {
          break;
        }
        int told = position;
        tell(() -> listener.stepEnded(ended, told));
      }
      catchUp(ended);
      tell(() -> listener.ended(ended));
      done.complete(ended);
    } catch (RuntimeException e) {
      done.completeExceptionally(e);
    }
  }

  /**
   * Waits for the workflow to close (a long poll for its close event), asking the interpreter
   * between times for the steps it has recorded, when someone listens: soon after each step, then
   * less and less often while nothing happens. Returns the final record.
   */
  private RunRecord follow() {
    WorkflowStub stub = connection.client.newUntypedWorkflowStub(execution, Optional.empty());
    CompletableFuture<String> result = stub.getResultAsync(String.class);
    boolean heard = listener != RunListener.NONE;
    long pause = FIRST_PAUSE_MS;
    while (true) {
      if (heard && tellRecorded(stub)) {
        pause = FIRST_PAUSE_MS;
      }
      try {
        return Payloads.read(result.get(pause, TimeUnit.MILLISECONDS), RunRecord.class);
      } catch (TimeoutException e) {
        pause = Math.min(pause * 2, LAST_PAUSE_MS);
      } catch (ExecutionException e) {
        return notCompleted(e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while following run " + run.runId(), e);
      }
    }
  }

  /** Tells listeners of the steps recorded since the last one told; false when there were none. */
  private boolean tellRecorded(WorkflowStub stub) {
    Payloads.Progress progress;
    try {
      progress = Payloads.read(stub.query("steps", String.class, next), Payloads.Progress.class);
    } catch (RuntimeException e) {
      // No worker answered now: the steps are told at the next answer, or at the end.
      return false;
    }
    for (StepRecord step : progress.steps()) {
      run = run.withStep(next, step);
      RunRecord now = run;
      int position = next++;
      tell(() -> listener.stepEnded(now, position));
    }
    return !progress.steps().isEmpty();
  }

  /**
   * The record of a run whose workflow closed without returning one: a cancelled workflow (the
   * interpreter records the run as cancelled on its worker, but Temporal reports no result of a
   * cancelled workflow), or one terminated from outside. The record this home holds wins when it
   * has the end.
   */
  private RunRecord notCompleted(Throwable cause) {
    try {
      RunStore.Stored stored = store.load(run.runId()).orElse(null);
      if (stored != null && stored.record().status().ended()) {
        return stored.record();
      }
    } catch (RuntimeException e) {
      // The database cannot tell: the end is made up from what was followed.
    }
    String now = clock.instant().toString();
    if (cause instanceof WorkflowFailedException failed
        && failed.getCause() instanceof CanceledFailure) {
      RunCancellation asked = cancellation.get();
      return run.cancelled(
          now,
          0,
          asked != null ? asked : new RunCancellation("Temporal workflow cancellation", now, null),
          next < run.steps().size() ? next : -1);
    }
    return run.ended(
        now,
        0,
        new RunRecord.RunError(
            null, "engine", "the run ended on Temporal without its record: " + why(cause)));
  }

  /**
   * Why a workflow closed without its result, in a sentence: terminated (with the reason given),
   * timed out (which timeout), or failed (with the failure's own message), else the innermost
   * message there is.
   */
  static String why(Throwable cause) {
    String innermost = null;
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof TerminatedFailure terminated) {
        String reason = terminated.getOriginalMessage();
        return "its workflow was terminated"
            + (reason == null || reason.isBlank() ? " from outside" : ": " + reason);
      }
      if (t instanceof TimeoutFailure timeout) {
        return "its workflow timed out ("
            + timeout.getTimeoutType().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
            + ")";
      }
      if (t instanceof ApplicationFailure failure) {
        return "its workflow failed: "
            + failure.getOriginalMessage()
            + (failure.getType() == null ? "" : " (" + failure.getType() + ")");
      }
      if (t instanceof TemporalFailure failure && !failure.getOriginalMessage().isBlank()) {
        innermost = failure.getOriginalMessage();
      } else if (t.getMessage() != null && !t.getMessage().isBlank()) {
        innermost = t.getMessage();
      }
    }
    return innermost == null ? "Temporal gave no reason" : innermost;
  }

  /** Writes the end into this home's index and trace when no worker of this home did. */
  private void catchUp(RunRecord ended) {
    try {
      RunStore.Stored stored = store.load(ended.runId()).orElse(null);
      if (stored != null && stored.record().status() != RunStatus.RUNNING) {
        return;
      }
      for (int position = 0; position < ended.steps().size(); position++) {
        if (ended.steps().get(position).status() != StepStatus.PENDING) {
          store.saveStep(ended, position);
        }
      }
      store.finish(ended);
      traces.write(ended);
    } catch (RuntimeException e) {
      log.warn("the end of run {} was not recorded: {}", ended.runId(), e.toString());
    }
  }

  private void tell(Runnable notice) {
    try {
      notice.run();
    } catch (RuntimeException e) {
      log.warn("a listener of run {} failed: {}", run.runId(), e.toString());
    }
  }
}
