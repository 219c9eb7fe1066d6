package dev.cortex.workflows.run;

import dev.cortex.workflows.activity.Activity;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityInput;
import dev.cortex.workflows.activity.ActivityResult;
import dev.cortex.workflows.jq.Jq;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * One attempt at a step, wherever it runs (a thread of the embedded engine, a Temporal worker's
 * activity): the activity under the step's timeout (its thread interrupted when the time is up), an
 * interruption or an unexpected exception turned into a failure the author can read.
 */
public final class Attempt {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Attempt.class);

  /** The threads attempts run on when they have a timeout, and for_each items; daemons. */
  static final ExecutorService THREADS =
      Executors.newCachedThreadPool(
          new java.util.concurrent.ThreadFactory() {
            private final AtomicInteger count = new AtomicInteger();

            @Override
            public Thread newThread(Runnable runnable) {
              Thread thread = new Thread(runnable, "cortex-step-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            }
          });

  /** How long an interrupted attempt gets to release what it started. */
  static final Duration RELEASE_WAIT = Duration.ofSeconds(15);

  private Attempt() {}

  /**
   * Runs {@code activity} once on {@code input}, stopped after the input's timeout if it has one.
   */
  public static ActivityResult run(Activity activity, ActivityInput input) throws ActivityFailure {
    Duration timeout = input.timeout();
    if (timeout == null) {
      return guarded(activity, input);
    }
    CompletableFuture<Void> ended = new CompletableFuture<>();
    Future<ActivityResult> future =
        THREADS.submit(
            () -> {
              try {
                return guarded(activity, input);
              } finally {
                ended.complete(null);
              }
            });
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      awaitEnd(List.of(ended));
      throw new ActivityFailure(
          "timeout", "step '" + input.stepId() + "' timed out after " + Describe.duration(timeout));
    } catch (InterruptedException e) {
      future.cancel(true);
      awaitEnd(List.of(ended));
      Thread.currentThread().interrupt();
      throw interrupted(input.stepId());
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ActivityFailure failure) {
        throw failure;
      }
      throw internal(activity, e.getCause());
    }
  }

  /**
   * Waits (at most {@link #RELEASE_WAIT}) for interrupted attempts to finish, so that what they
   * started (a process group) is ended before the step is recorded or tried again.
   */
  static void awaitEnd(List<CompletableFuture<Void>> ended) {
    long deadline = System.nanoTime() + RELEASE_WAIT.toNanos();
    for (CompletableFuture<Void> end : ended) {
      try {
        end.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException | TimeoutException e) {
        // It ended badly, or it hangs: either way, waiting longer does not help.
      }
    }
  }

  /** The failure of an attempt whose thread was interrupted (not by its timeout). */
  public static ActivityFailure interrupted(String stepId) {
    return new ActivityFailure("interrupted", "step '" + stepId + "' was interrupted", null, false);
  }

  /** Evaluates an activity's jq expressions over {@code context} (the transform kind's). */
  public static ActivityInput.Expressions expressions(Jq.Context context) {
    return new ActivityInput.Expressions() {
      @Override
      public JsonNode evaluate(String expression) throws ActivityFailure {
        try {
          return context.evaluate(expression);
        } catch (Jq.JqException e) {
          throw new ActivityFailure("jq", e.getMessage(), null, false);
        }
      }

      @Override
      public JsonNode evaluate(String expression, JsonNode value) throws ActivityFailure {
        try {
          return Jq.evaluate(expression, value);
        } catch (Jq.JqException e) {
          throw new ActivityFailure("jq", e.getMessage(), null, false);
        }
      }
    };
  }

  private static ActivityResult guarded(Activity activity, ActivityInput input)
      throws ActivityFailure {
    try {
      return activity.run(input);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted(input.stepId());
    } catch (ActivityFailure failure) {
      throw failure;
    } catch (RuntimeException e) {
      throw internal(activity, e);
    }
  }

  private static ActivityFailure internal(Activity activity, Throwable cause) {
    log.error("the {} activity failed unexpectedly", activity.kind().wireName(), cause);
    return new ActivityFailure(
        "internal",
        "the " + activity.kind().wireName() + " activity failed unexpectedly; see the server log",
        null,
        false);
  }
}
