package dev.cortex.workflows.temporal;

import dev.cortex.workflows.Jq;
import dev.cortex.workflows.Manifest;
import dev.cortex.workflows.ManifestException;
import dev.cortex.workflows.ManifestLoader;
import dev.cortex.workflows.Step;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.StepRunner;
import dev.cortex.workflows.run.StepStatus;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The interpreter workflow: walks the manifest's steps from the first that has not completed, runs
 * each through the shared {@link StepRunner} with a {@link TemporalExecutor}, and records each
 * ended step (local activity, on this worker) before the next starts; then records the end. Step
 * semantics, templates and jq run here, in workflow code: they are deterministic.
 */
public final class Interpreter implements InterpreterWorkflow {
  private static final Activities KINDS = Activities.standard();
  private static final StepRunner RUNNER =
      new StepRunner(KINDS, WorkflowTime.CLOCK, WorkflowTime::nanos);
  private static final LocalActivityOptions RECORDING =
      LocalActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(60))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setMaximumAttempts(3)
                  .setInitialInterval(Duration.ofMillis(200))
                  .build())
          .build();

  private RunRecord run;
  private int recorded;

  /** Loads what workflow code needs once per worker, before its first workflow task. */
  static void warmUp() {
    try {
      Manifest manifest =
          ManifestLoader.parse(
              "warm-up.yaml",
              "name: warm-up\nversion: '1'\nsteps:\n  - id: a\n    kind: transform\n"
                  + "    with: {expression: '[.params] | length'}\n");
      Jq.Context.of(dev.cortex.mcp.Json.tree(java.util.Map.of())).evaluate("[.steps] | length");
      manifest.steps().forEach(step -> KINDS.forKind(step.kind()));
    } catch (ManifestException | Jq.JqException e) {
      throw new IllegalStateException("the interpreter does not load", e);
    }
  }

  @Override
  public String run(String input) {
    Wire.Start start = Wire.read(input, Wire.Start.class);
    run = start.run();
    recorded = start.first();
    RunRecorder recorder = Workflow.newLocalActivityStub(RunRecorder.class, RECORDING);
    long started = Workflow.currentTimeMillis();
    long prior = 0;
    RunRecord.RunError error = null;
    String current = null;
    try {
      recorder.begin(Wire.write(run), start.manifest());
      Manifest manifest = ManifestLoader.parse(run.source().location(), start.manifest());
      Jq.Context context = Jq.Context.of(run.parameters());
      for (int i = 0; i < start.first(); i++) {
        StepRecord done = run.steps().get(i);
        context.put(done.id(), done.output());
        prior += done.durationMs() == null ? 0 : done.durationMs();
      }
      TemporalExecutor executor =
          new TemporalExecutor(
              run.runId(),
              run.source().location(),
              start.manifest(),
              Duration.ofMillis(start.heartbeatMs()),
              KINDS);
      for (int position = start.first(); position < manifest.steps().size(); position++) {
        Step step = manifest.steps().get(position);
        current = step.id();
        StepRecord record = RUNNER.run(step, manifest, context, executor);
        context.put(step.id(), record.output());
        run = run.withStep(position, record);
        recorder.step(Wire.write(run), position);
        recorded = position + 1;
        if (record.status() == StepStatus.FAILED) {
          error =
              new RunRecord.RunError(step.id(), record.error().kind(), record.error().message());
          break;
        }
      }
    } catch (ManifestException e) {
      error = new RunRecord.RunError(current, "engine", "the run's manifest no longer loads");
    } catch (ActivityFailure e) {
      // The run's state could not be recorded on the worker (its database stayed locked, the
      // disk is full): end the run as failed, as the embedded engine does.
      error =
          new RunRecord.RunError(
              current,
              "engine",
              "the engine could not record the run's progress; see the worker's log");
    }
    run =
        run.ended(
            WorkflowTime.CLOCK.instant().toString(),
            Workflow.currentTimeMillis() - started + prior,
            error);
    try {
      recorder.finish(Wire.write(run));
    } catch (ActivityFailure e) {
      // The starter writes the final trace when it sees the run end.
    }
    recorded = run.steps().size();
    return Wire.write(run);
  }

  @Override
  public String steps(int from) {
    List<StepRecord> steps = new ArrayList<>();
    if (run != null) {
      for (int position = Math.max(0, from); position < recorded; position++) {
        StepRecord step = run.steps().get(position);
        if (step.status() == StepStatus.PENDING) {
          break;
        }
        steps.add(step);
      }
    }
    return Wire.write(new Wire.Progress(steps));
  }
}
