package dev.cortex.cli.workflows;

import dev.cortex.cli.Io;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Steps as they complete, one line each, on standard error; with {@code tail}, a step's output too,
 * line by line as it comes, each line under its step's id.
 */
final class LiveProgress implements RunListener {
  /** The most characters of one output line shown; the rest is cut with an ellipsis. */
  static final int LINE = 200;

  private final Io io;
  private final boolean tail;
  private final Map<String, ByteArrayOutputStream> partial = new LinkedHashMap<>();

  LiveProgress(Io io, boolean tail) {
    this.io = io;
    this.tail = tail;
  }

  @Override
  public synchronized void stepOutput(String stepId, byte[] bytes, int offset, int length) {
    if (!tail) {
      return;
    }
    ByteArrayOutputStream line = partial.computeIfAbsent(stepId, id -> new ByteArrayOutputStream());
    for (int i = offset; i < offset + length; i++) {
      if (bytes[i] == '\n') {
        show(stepId, line);
      } else if (line.size() < 4 * LINE) {
        line.write(bytes[i]);
      }
    }
  }

  /** Shows the line a step wrote so far and starts the next. */
  private void show(String stepId, ByteArrayOutputStream line) {
    String text = line.toString(StandardCharsets.UTF_8).replace("\r", "");
    if (text.length() > LINE) {
      text = text.substring(0, LINE - 1) + "…";
    }
    io.err().println("    " + stepId + " | " + text);
    line.reset();
  }

  /** Shows what a step wrote after its last newline. */
  private synchronized void flush(String stepId) {
    ByteArrayOutputStream line = partial.remove(stepId);
    if (line != null && line.size() > 0) {
      show(stepId, line);
    }
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
    flush(step.id());
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
