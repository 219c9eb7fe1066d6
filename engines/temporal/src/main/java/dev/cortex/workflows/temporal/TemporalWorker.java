package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A Temporal worker of Cortex runs: polls one task queue for the interpreter workflow and the step
 * activities, and records the runs it interprets in this worker's {@code CORTEX_HOME}. Any number
 * of workers may share a queue; each attempt and each workflow task goes to one of them.
 */
public final class TemporalWorker implements AutoCloseable {
  /** How long workflow code may run without yielding before Temporal suspects a deadlock. */
  static final long DEADLOCK_DETECTION_MS = 10_000;

  /** The longest an attempt's heartbeats are held back by the SDK before they are sent. */
  static final Duration HEARTBEAT_THROTTLE = Duration.ofSeconds(1);

  /** How long a run's next workflow task waits for the worker that holds the run in memory. */
  static final Duration STICKY_TIMEOUT = Duration.ofSeconds(5);

  private final Connection connection;
  private final WorkerFactory factory;
  private final WorkerScopes scopes;

  private TemporalWorker(Connection connection, WorkerFactory factory, WorkerScopes scopes) {
    this.connection = connection;
    this.factory = factory;
    this.scopes = scopes;
  }

  /**
   * How a worker runs: at most {@code concurrency} step attempts at once, and up to {@code
   * workflowCache} runs kept in memory between their steps. With a cache, the next step of a run
   * goes to the worker that holds it (Temporal's sticky execution); with 0, every step's workflow
   * task replays the run's history on whichever worker takes it.
   */
  public record Options(int concurrency, int workflowCache) {
    public static final Options DEFAULTS = new Options(64, 600);

    public Options {
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
      }
      if (workflowCache < 0) {
        throw new IllegalArgumentException("the workflow cache must not be negative");
      }
    }
  }

  /**
   * Connects to the cluster and starts polling {@code settings.taskQueue()}.
   *
   * @throws IllegalStateException when the cluster cannot be reached
   */
  public static TemporalWorker start(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Activities activities,
      ActivityEnvironment environment,
      Options options) {
    Interpreter.warmUp();
    Connection connection = Connection.open(settings, env);
    Optional<String> problem = connection.problem();
    if (problem.isPresent()) {
      connection.close();
      throw new IllegalStateException(problem.get());
    }
    WorkerScopes scopes = new WorkerScopes(environment.clock());
    WorkerFactory factory =
        WorkerFactory.newInstance(
            connection.client,
            WorkerFactoryOptions.newBuilder()
                .setWorkflowCacheSize(options.workflowCache())
                .build());
    Worker worker =
        factory.newWorker(
            settings.taskQueue(),
            WorkerOptions.newBuilder()
                .setDefaultDeadlockDetectionTimeout(DEADLOCK_DETECTION_MS)
                .setMaxConcurrentActivityExecutionSize(options.concurrency())
                // Heartbeats reach the cluster at least once a second: how an attempt hears, in
                // time, that its run was cancelled.
                .setMaxHeartbeatThrottleInterval(HEARTBEAT_THROTTLE)
                .setDefaultHeartbeatThrottleInterval(HEARTBEAT_THROTTLE)
                // No cache, no sticky execution: a zero schedule-to-start timeout is the SDK's way
                // of not asking the cluster to keep a run's next workflow task for this worker.
                .setStickyQueueScheduleToStartTimeout(
                    options.workflowCache() == 0 ? Duration.ZERO : STICKY_TIMEOUT)
                .build());
    worker.registerWorkflowImplementationTypes(Interpreter.class);
    worker.registerActivitiesImplementations(
        new StepAttempts(activities, environment, scopes), new Recording(store, traces, scopes));
    factory.start();
    return new TemporalWorker(connection, factory, scopes);
  }

  /**
   * Stops polling and interrupts the attempts in progress; Temporal gives them to other workers
   * without counting them against their steps.
   */
  @Override
  public void close() {
    factory.shutdownNow();
    factory.awaitTermination(5, TimeUnit.SECONDS);
    scopes.close();
    connection.close();
  }
}
