package dev.cortex.workflows.run;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityInput;
import dev.cortex.workflows.activity.ProcessObserver;
import dev.cortex.workflows.activity.RunScope;
import dev.cortex.workflows.manifest.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.IntConsumer;

/**
 * How the embedded engine carries out steps: attempts on this thread (or one of {@link
 * Attempt#THREADS} under a timeout), pauses between them as its {@link Backoff} says (the step's
 * backoff, slept), and for_each items on pool threads, at most the step's concurrency at once.
 */
final class LocalExecutor implements StepRunner.Executor {
  private final Activities activities;
  private final ActivityEnvironment environment;
  private final RunScope scope;
  private final ProcessObserver processes;
  private final Backoff backoff;

  LocalExecutor(
      Activities activities,
      ActivityEnvironment environment,
      RunScope scope,
      ProcessObserver processes) {
    this(activities, environment, scope, processes, Backoff.MANIFEST);
  }

  LocalExecutor(
      Activities activities,
      ActivityEnvironment environment,
      RunScope scope,
      ProcessObserver processes,
      Backoff backoff) {
    this.activities = activities;
    this.environment = environment;
    this.scope = scope;
    this.processes = processes;
    this.backoff = Objects.requireNonNull(backoff, "backoff");
  }

  @Override
  public StepRunner.Outcome attempts(StepRunner.Call call) {
    Step step = call.step();
    ActivityInput input =
        new ActivityInput(
            step.id(),
            call.with(),
            call.manifest(),
            step.timeout(),
            environment,
            scope,
            Attempt.expressions(call.context()),
            processes);
    int attempt = 0;
    while (true) {
      attempt++;
      try {
        return StepRunner.Outcome.succeeded(
            Attempt.run(activities.forKind(step.kind()), input), attempt);
      } catch (ActivityFailure failure) {
        if (!failure.retryable() || attempt >= step.retry().attempts()) {
          return StepRunner.Outcome.failed(failure, attempt);
        }
        try {
          backoff.await(step.retry(), attempt + 1);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return StepRunner.Outcome.failed(failure, attempt);
        }
      }
    }
  }

  /**
   * Runs the items on pool threads, at most {@code concurrency} at once. An interrupt (the run's
   * cancellation) starts no further item, interrupts those running and waits for them to release
   * what they started.
   */
  @Override
  public void fanOut(int count, int concurrency, IntConsumer task) {
    if (concurrency == 1) {
      for (int i = 0; i < count && !Thread.currentThread().isInterrupted(); i++) {
        task.accept(i);
      }
      return;
    }
    Semaphore slots = new Semaphore(concurrency);
    List<Future<?>> futures = new ArrayList<>();
    List<CompletableFuture<Void>> ended = new ArrayList<>();
    try {
      for (int index = 0; index < count; index++) {
        int i = index;
        slots.acquire();
        CompletableFuture<Void> end = new CompletableFuture<>();
        ended.add(end);
        futures.add(
            Attempt.THREADS.submit(
                () -> {
                  try {
                    task.accept(i);
                  } finally {
                    slots.release();
                    end.complete(null);
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (InterruptedException e) {
      futures.forEach(f -> f.cancel(true));
      Attempt.awaitEnd(ended);
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // Tasks report failures in their outcomes; nothing escapes them.
    }
  }
}
