package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityInput;
import dev.cortex.workflows.activity.ActivityResult;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.manifest.StepKind;
import dev.cortex.workflows.run.Attempt;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationErrorCategory;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The worker's side of {@link StepActivity}: one attempt of a step, run by the same code as the
 * embedded engine's ({@link Attempt#run}: the step's timeout, interruption, unexpected errors), on
 * a thread of its own while this one heartbeats. When Temporal says the attempt is over (its
 * heartbeat timed out, the run was cancelled) the attempt's thread is interrupted, which stops what
 * it started.
 */
final class StepAttempts implements StepActivity {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StepAttempts.class);

  private static final ExecutorService THREADS =
      Executors.newCachedThreadPool(
          new java.util.concurrent.ThreadFactory() {
            private final AtomicInteger count = new AtomicInteger();

            @Override
            public Thread newThread(Runnable runnable) {
              Thread thread = new Thread(runnable, "cortex-attempt-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            }
          });

  private final Activities activities;
  private final ActivityEnvironment environment;
  private final WorkerScopes scopes;
  private final Map<String, Manifest> manifests = new ConcurrentHashMap<>();

  StepAttempts(Activities activities, ActivityEnvironment environment, WorkerScopes scopes) {
    this.activities = activities;
    this.environment = environment;
    this.scopes = scopes;
  }

  @Override
  public String attempt(String json) {
    ActivityExecutionContext execution = Activity.getExecutionContext();
    int attempt = execution.getInfo().getAttempt();
    Payloads.Call call = Payloads.read(json, Payloads.Call.class);
    StepKind kind =
        StepKind.fromWireName(call.kind())
            .orElseThrow(
                () ->
                    ApplicationFailure.newNonRetryableFailure(
                        "this worker has no step kind '" + call.kind() + "'", "internal"));
    Jq.Context context =
        Payloads.orNull(call.context()) == null
            ? Jq.Context.of(JsonNodeFactory.instance.objectNode())
            : Jq.Context.fromJson(call.context());
    ActivityInput input =
        new ActivityInput(
            call.stepId(),
            call.with(),
            manifest(call),
            call.timeoutMs() == null ? null : Duration.ofMillis(call.timeoutMs()),
            environment,
            scopes.of(call.runId()),
            Attempt.expressions(context));
    java.util.concurrent.CompletableFuture<Void> ended =
        new java.util.concurrent.CompletableFuture<>();
    Future<ActivityResult> running =
        THREADS.submit(
            () -> {
              try {
                return Attempt.run(activities.forKind(kind), input);
              } finally {
                ended.complete(null);
              }
            });
    // Beats often enough that a cancelled run's attempt stops within about a second (the
    // worker's heartbeat throttle is as short).
    long beat =
        Math.min(BEAT_MS, Math.max(100, execution.getInfo().getHeartbeatTimeout().toMillis() / 4));
    while (true) {
      try {
        ActivityResult result = running.get(beat, TimeUnit.MILLISECONDS);
        return Payloads.write(
            new Payloads.Result(result.output(), result.summary(), result.cost(), attempt));
      } catch (TimeoutException e) {
        try {
          execution.heartbeat(null);
        } catch (ActivityCompletionException over) {
          // Cancelled, or timed out for Temporal: end what the attempt started, then say so.
          running.cancel(true);
          awaitRelease(ended);
          throw over;
        }
      } catch (InterruptedException e) {
        running.cancel(true);
        awaitRelease(ended);
        Thread.currentThread().interrupt();
        throw ApplicationFailure.newNonRetryableFailure(
            "the worker running step '" + call.stepId() + "' stopped",
            TemporalExecutor.WORKER_STOPPED);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof ActivityFailure failure) {
          log.warn(
              "run {}: step '{}' attempt {} failed ({}): {}",
              call.runId(),
              call.stepId(),
              attempt,
              failure.kind(),
              failure.getMessage());
          throw failure(failure, attempt);
        }
        throw ApplicationFailure.newNonRetryableFailure(
            "step '" + call.stepId() + "' failed unexpectedly; see the worker's log", "internal");
      }
    }
  }

  /** The longest pause between heartbeats of an attempt. */
  static final long BEAT_MS = 1000;

  /** Waits (bounded) for an interrupted attempt to release what it started. */
  private static void awaitRelease(java.util.concurrent.CompletableFuture<Void> ended) {
    try {
      ended.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // It hangs: the worker goes on; Temporal has the attempt's outcome already.
    }
  }

  /**
   * The Temporal failure of a failed attempt, retryable as the failure says. A step failing is the
   * workflow's business, not the worker's: the failure is benign, so the SDK logs it at debug level
   * instead of a warning with a stack trace (the worker logs one line of its own).
   */
  static ApplicationFailure failure(ActivityFailure failure, int attempt) {
    return ApplicationFailure.newBuilder()
        .setMessage(failure.getMessage())
        .setType(failure.kind())
        .setDetails(Payloads.write(new Payloads.Failed(failure.output(), attempt)))
        .setNonRetryable(!failure.retryable())
        .setCategory(ApplicationErrorCategory.BENIGN)
        .build();
  }

  /** The call's manifest, parsed once per worker. */
  private Manifest manifest(Payloads.Call call) {
    Manifest cached = manifests.get(call.manifest());
    if (cached != null) {
      return cached;
    }
    try {
      Manifest parsed = ManifestLoader.parse(call.location(), call.manifest());
      if (manifests.size() > 64) {
        manifests.clear();
      }
      manifests.put(call.manifest(), parsed);
      return parsed;
    } catch (ManifestException e) {
      throw ApplicationFailure.newNonRetryableFailure(
          "the manifest of step '" + call.stepId() + "' does not load on this worker", "engine");
    }
  }
}
