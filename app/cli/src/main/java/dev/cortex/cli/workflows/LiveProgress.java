package dev.cortex.cli.workflows;

import dev.cortex.cli.Io;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;

/** Steps as they complete, one line each, on standard error. */
final class LiveProgress implements RunListener {
  private final Io io;

  LiveProgress(Io io) {
    this.io = io;
  }

  @Override
  public void planned(RunRecord run) {
    io.err()
        .println(
            "run "
                + run.runId()
                + ": "
                + run.workflow()
                + " "
                + run.version()
                + ", "
                + run.stepsTotal()
                + (run.stepsTotal() == 1 ? " step" : " steps"));
  }

  @Override
  public void stepEnded(RunRecord run, int position) {
    StepRecord step = run.steps().get(position);
    String mark =
        switch (step.status()) {
          case SUCCEEDED -> "ok  ";
          case SKIPPED -> "skip";
          default -> "FAIL";
        };
    io.err()
        .printf(
            "  %s %d/%d %-24s %6d ms  %s%n",
            mark,
            position + 1,
            run.stepsTotal(),
            step.id(),
            step.durationMs(),
            step.error() == null ? step.outputSummary() : step.error().message());
  }

  @Override
  public void ended(RunRecord run) {
    io.err()
        .println(
            "run " + run.runId() + " " + run.status().wire() + " in " + run.durationMs() + " ms");
  }
}
