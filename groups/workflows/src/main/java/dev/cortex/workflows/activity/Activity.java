package dev.cortex.workflows.activity;

import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.util.List;
import java.util.Map;

/**
 * One kind of step: what its {@code with} inputs look like, what can be checked before a run, and
 * the work itself. Implementations are stateless; anything a run keeps open between steps (an MCP
 * client, say) lives in the {@link RunScope}.
 */
public interface Activity {
  /** The kind this activity runs. */
  StepKind kind();

  /** One sentence on what the kind does, for people and generated references. */
  String description();

  /** What a successful attempt returns as the step's output, and what counts as a failure. */
  String outputDescription();

  /**
   * The JSON Schema (2020-12) of {@code with} once its templates are resolved: a closed object. The
   * engine validates resolved inputs against it before {@link #run}; the loader uses its property
   * names and required list on the manifest as written.
   */
  Map<String, Object> inputSchema();

  /**
   * Problems that can be found before running, without side effects: a program not on the path, a
   * JDBC driver missing, an MCP server command missing. Only literal inputs can be checked; a value
   * that is still a template is skipped. Each problem is one sentence naming the step.
   */
  default List<String> preflight(Step step, Manifest manifest, ActivityEnvironment environment) {
    return List.of();
  }

  /**
   * Whether {@link #run} evaluates expressions over the run's context ({@link
   * ActivityInput.Expressions#evaluate(String)}), so that an engine that runs attempts elsewhere
   * must send the context along.
   */
  default boolean readsRunContext() {
    return false;
  }

  /**
   * Runs one attempt. Must answer {@link Thread#interrupt()} promptly (the engine interrupts on
   * timeout), releasing what it started (killing a subprocess, closing a connection).
   *
   * @throws ActivityFailure when the attempt failed in a way the workflow author should see
   */
  ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException;
}
