package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import java.time.Clock;
import java.util.Map;

/** The Temporal runtime on the Temporal Java SDK: the service the command loads. */
public final class SdkRuntime implements TemporalRuntime {
  @Override
  public Engine engine(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Clock clock) {
    return new TemporalEngine(settings, env, store, traces, clock);
  }

  @Override
  public AutoCloseable worker(
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
