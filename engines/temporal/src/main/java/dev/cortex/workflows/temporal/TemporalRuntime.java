package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import java.time.Clock;
import java.util.Map;

/**
 * What the {@code cortex} command asks of the Temporal runtime, which it loads (with the Temporal
 * SDK) with a class loader of its own, only when it is needed, and finds with {@link
 * java.util.ServiceLoader}. It names only types of the command's own class path, so the command and
 * the runtime are compiled against one signature.
 */
public interface TemporalRuntime {
  /** The Temporal engine over this home's run index and trace files. */
  Engine engine(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Clock clock);

  /**
   * A started worker; closing it stops it.
   *
   * @throws IllegalStateException when the cluster cannot be reached
   * @throws IllegalArgumentException when the options or the TLS and API key settings are wrong
   */
  AutoCloseable worker(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Activities activities,
      ActivityEnvironment environment,
      int concurrency,
      int workflowCache);
}
