package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityResult;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.run.StepRunner;
import io.temporal.activity.ActivityCancellationType;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import io.temporal.workflow.WorkflowSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * How the interpreter workflow carries out steps: each call is one Temporal activity whose options
 * are the step's timeout and retry (attempts, a constant backoff, failures the step must not retry
 * marked non-retryable), and for_each items run as workflow promises, at most the step's
 * concurrency at once. An attempt whose worker died (it stopped heartbeating) or stopped is given
 * to another worker without counting against the step's attempts, a few times at most.
 */
final class TemporalExecutor implements StepRunner.Executor {
  /** The start-to-close timeout of attempts of a step without a timeout of its own. */
  static final Duration NO_TIMEOUT = Duration.ofDays(365);

  /** How often an attempt may lose its worker before the step fails. */
  static final int LOST_WORKERS = 5;

  /** The failure type of an attempt whose worker was stopped while running it. */
  static final String WORKER_STOPPED = "worker_stopped";

  private final String runId;
  private final String location;
  private final String manifest;
  private final Duration heartbeat;
  private final Activities kinds;

  TemporalExecutor(
      String runId, String location, String manifest, Duration heartbeat, Activities kinds) {
    this.runId = runId;
    this.location = location;
    this.manifest = manifest;
    this.heartbeat = heartbeat;
    this.kinds = kinds;
  }

  /** The activity options of {@code step}'s attempts. */
  ActivityOptions options(Step step) {
    Duration backoff = step.retry().backoff();
    return ActivityOptions.newBuilder()
        // A cancelled run waits for its running attempt to stop (its processes ended) first.
        .setCancellationType(ActivityCancellationType.WAIT_CANCELLATION_COMPLETED)
        .setStartToCloseTimeout(
            step.timeout() == null ? NO_TIMEOUT : step.timeout().plus(heartbeat))
        .setHeartbeatTimeout(heartbeat)
        .setRetryOptions(
            RetryOptions.newBuilder()
                .setMaximumAttempts(step.retry().attempts())
                .setInitialInterval(backoff.isZero() ? Duration.ofMillis(1) : backoff)
                .setBackoffCoefficient(1.0)
                .build())
        .build();
  }

  @Override
  public StepRunner.Outcome attempts(StepRunner.Call call) {
    Step step = call.step();
    Payloads.Call payload =
        new Payloads.Call(
            runId,
            step.id(),
            step.kind().wireName(),
            location,
            manifest,
            call.with(),
            step.timeout() == null ? null : step.timeout().toMillis(),
            kinds.forKind(step.kind()).readsRunContext() ? call.context().toJson() : null);
    String json = Payloads.write(payload);
    StepActivity activity = Workflow.newActivityStub(StepActivity.class, options(step));
    for (int lost = 0; ; lost++) {
      try {
        Payloads.Result result = Payloads.read(activity.attempt(json), Payloads.Result.class);
        return StepRunner.Outcome.succeeded(
            new ActivityResult(result.output(), result.summary(), result.cost()), result.attempt());
      } catch (io.temporal.failure.ActivityFailure e) {
        Throwable cause = e.getCause();
        if (cause instanceof CanceledFailure cancelled) {
          // The run is cancelled: not a failure of the step, the interpreter's to record.
          throw cancelled;
        }
        if (cause instanceof ApplicationFailure failure
            && !WORKER_STOPPED.equals(failure.getType())) {
          return StepRunner.Outcome.failed(failed(failure), attempt(failure));
        }
        String why = cause == null ? e.getMessage() : cause.getMessage();
        boolean workerLost = cause instanceof TimeoutFailure || cause instanceof ApplicationFailure;
        if (!workerLost) {
          return StepRunner.Outcome.failed(
              new ActivityFailure(
                  "engine",
                  "step '" + step.id() + "' could not run on Temporal: " + why,
                  null,
                  false),
              1);
        }
        if (lost + 1 >= LOST_WORKERS) {
          return StepRunner.Outcome.failed(
              new ActivityFailure(
                  "worker_lost",
                  "step '"
                      + step.id()
                      + "' lost its Temporal worker "
                      + (lost + 1)
                      + " times: "
                      + why,
                  null,
                  false),
              1);
        }
      }
    }
  }

  @Override
  public void fanOut(int count, int concurrency, IntConsumer task) {
    if (concurrency == 1) {
      for (int i = 0; i < count; i++) {
        task.accept(i);
      }
      return;
    }
    WorkflowSemaphore slots = Workflow.newWorkflowSemaphore(concurrency);
    List<Promise<Void>> items = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      int i = index;
      slots.acquire();
      items.add(
          Async.procedure(
              () -> {
                try {
                  task.accept(i);
                } finally {
                  slots.release();
                }
              }));
    }
    Promise.allOf(items).get();
  }

  private static ActivityFailure failed(ApplicationFailure failure) {
    Payloads.Failed details = details(failure);
    return new ActivityFailure(
        failure.getType() == null ? "internal" : failure.getType(),
        failure.getOriginalMessage(),
        details == null ? null : Payloads.orNull(details.output()),
        false);
  }

  private static int attempt(ApplicationFailure failure) {
    Payloads.Failed details = details(failure);
    return details == null ? 1 : details.attempt();
  }

  private static Payloads.Failed details(ApplicationFailure failure) {
    if (failure.getDetails() == null || failure.getDetails().getSize() == 0) {
      return null;
    }
    String json = failure.getDetails().get(0, String.class);
    return json == null ? null : Payloads.read(json, Payloads.Failed.class);
  }
}
