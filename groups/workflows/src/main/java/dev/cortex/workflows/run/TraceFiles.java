package dev.cortex.workflows.run;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The trace files of {@code $CORTEX_HOME/runs/}: one JSON document per run, replaced atomically
 * after every step, never trimmed.
 */
public final class TraceFiles {
  private static final Pattern RUN_ID = Pattern.compile("[0-9]{8}T[0-9]{6}Z-[a-z0-9]{8}");
  private final Path dir;

  public TraceFiles(CortexHome home) {
    this.dir = home.runsDir();
  }

  /** The trace file of {@code runId}. */
  public Path file(String runId) {
    if (!RUN_ID.matcher(runId).matches()) {
      throw new IllegalArgumentException("not a run id: " + runId);
    }
    return dir.resolve(runId + ".json");
  }

  /** Replaces the run's trace file with {@code run} as it stands. */
  public void write(RunRecord run) {
    CortexHome.writeAtomically(file(run.runId()), Json.writePretty(run) + "\n");
  }

  /** Whether {@code text} has the shape of a run id. */
  public static boolean isRunId(String text) {
    return text != null && RUN_ID.matcher(text).matches();
  }
}
