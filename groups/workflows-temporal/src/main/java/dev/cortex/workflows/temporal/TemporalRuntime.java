package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import java.time.Clock;
import java.util.Map;

/**
 * The entry points of the Temporal runtime for the {@code cortex} command, which loads this module
 * and the Temporal SDK with a class loader of their own, only when they are needed. Their
 * signatures name only types of the command's own class path.
 */
public final class TemporalRuntime {
  private TemporalRuntime() {}

  /** The Temporal engine over this home's run index and trace files. */
  public static Engine engine(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Clock clock) {
    return new TemporalEngine(settings, env, store, traces, clock);
  }

  /**
   * A started worker; closing it stops it.
   *
   * @throws IllegalStateException when the cluster cannot be reached
   * @throws IllegalArgumentException when the options or the TLS and API key settings are wrong
   */
  public static AutoCloseable worker(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Activities activities,
      ActivityEnvironment environment,
      int concurrency,
      int workflowCache) {
    return TemporalWorker.start(
        settings,
        env,
        store,
        traces,
        activities,
        environment,
        new TemporalWorker.Options(concurrency, workflowCache));
  }
}
