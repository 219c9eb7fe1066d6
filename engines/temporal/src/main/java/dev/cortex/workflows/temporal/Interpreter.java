package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.run.RunCancellation;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.StepRunner;
import dev.cortex.workflows.run.StepStatus;
import io.temporal.activity.LocalActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.CancellationScope;
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
      Jq.Context.of(dev.cortex.base.Json.tree(java.util.Map.of())).evaluate("[.steps] | length");
      manifest.steps().forEach(step -> KINDS.forKind(step.kind()));
    } catch (ManifestException | Jq.JqException e) {
      throw new IllegalStateException("the interpreter does not load", e);
    }
  }

  @Override
  public String run(String input) {
    Payloads.Start start = Payloads.read(input, Payloads.Start.class);
    run = start.run();
    recorded = start.first();
    RunRecorder recorder = Workflow.newLocalActivityStub(RunRecorder.class, RECORDING);
    long started = Workflow.currentTimeMillis();
    long prior = 0;
    RunRecord.RunError error = null;
    String current = null;
    RunCancellation cancelled = null;
    int cut = -1;
    int position = start.first();
    try {
      RunRecord begun = run;
      detached(() -> recorder.begin(Payloads.write(begun), start.manifest()));
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
      for (; position < manifest.steps().size(); position++) {
        if (CancellationScope.current().isCancelRequested()) {
          throw new CanceledFailure("the run was cancelled between its steps");
        }
        Step step = manifest.steps().get(position);
        current = step.id();
        StepRecord record;
        try {
          record = RUNNER.run(step, manifest, context, executor);
        } catch (CanceledFailure e) {
          cut = position;
          throw e;
        }
        context.put(step.id(), record.output());
        run = run.withStep(position, record);
        RunRecord now = run;
        int done = position;
        detached(() -> recorder.step(Payloads.write(now), done));
        recorded = position + 1;
        if (record.status() == StepStatus.FAILED) {
          error =
              new RunRecord.RunError(step.id(), record.error().kind(), record.error().message());
          break;
        }
      }
    } catch (ManifestException e) {
      error = new RunRecord.RunError(current, "engine", "the run's manifest no longer loads");
    } catch (CanceledFailure e) {
      cancelled = cancellation();
    } catch (ActivityFailure e) {
      // The run's state could not be recorded on the worker (its database stayed locked, the
      // disk is full): end the run as failed, as the embedded engine does.
      error =
          new RunRecord.RunError(
              current,
              "engine",
              "the engine could not record the run's progress; see the worker's log");
    }
    String endedAt = WorkflowTime.CLOCK.instant().toString();
    long millis = Workflow.currentTimeMillis() - started + prior;
    run =
        cancelled == null
            ? run.ended(endedAt, millis, error)
            : run.cancelled(endedAt, millis, cancelled, cut);
    RunRecord ended = run;
    int cutStep = cut;
    try {
      if (cutStep >= 0) {
        detached(() -> recorder.step(Payloads.write(ended), cutStep));
      }
      detached(() -> recorder.finish(Payloads.write(ended)));
    } catch (ActivityFailure e) {
      // The starter writes the final trace when it sees the run end.
    }
    recorded = run.steps().size();
    return Payloads.write(run);
  }

  /**
   * Runs {@code work} (a recording) in a scope the run's cancellation does not reach: a cancelled
   * run is still recorded.
   */
  private static void detached(Runnable work) {
    Workflow.newDetachedCancellationScope(work).run();
  }

  /**
   * Who cancelled the run, from the reason of its workflow's cancellation (Cortex passes the
   * cancellation itself); a cancellation from outside Cortex (the temporal CLI) says so.
   */
  private static RunCancellation cancellation() {
    String reason = CancellationScope.current().getCancellationReason();
    if (reason != null && reason.startsWith("{")) {
      try {
        return Payloads.read(reason, RunCancellation.class);
      } catch (RuntimeException e) {
        // not Cortex's: described below
      }
    }
    return new RunCancellation(
        "Temporal workflow cancellation", WorkflowTime.CLOCK.instant().toString(), reason);
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
    return Payloads.write(new Payloads.Progress(steps));
  }
}
