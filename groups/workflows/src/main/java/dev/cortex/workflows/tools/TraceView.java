package dev.cortex.workflows.tools;

import dev.cortex.base.Json;
import dev.cortex.workflows.run.Describe;
import dev.cortex.workflows.run.RunRecord;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A run's trace as tools and commands return it. Any single step output larger than {@link
 * #ELISION_BYTES} is replaced by a note with the exact {@code runs_show} call (on the command line,
 * the {@code cortex runs show} command) that fetches it; statuses, summaries, durations and costs
 * are always kept. The trace on disk is never elided.
 */
public final class TraceView {
  /** Outputs over this many bytes of JSON are elided from returned traces. */
  static final int ELISION_BYTES = 2048;

  private TraceView() {}

  /**
   * The trace of {@code run} as a tool returns it, with large outputs elided unless {@code full}.
   */
  static JsonNode of(RunRecord run, boolean full) {
    return of(run, full, Surface.MCP);
  }

  /**
   * The trace of {@code run}, with large outputs elided unless {@code full}, each elision naming
   * how to fetch the output where the trace is read.
   */
  public static JsonNode of(RunRecord run, boolean full, Surface surface) {
    ObjectNode tree = (ObjectNode) Json.tree(run);
    if (full) {
      return tree;
    }
    for (JsonNode step : tree.path("steps")) {
      JsonNode output = step.get("output");
      if (output == null || output.isNull()) {
        continue;
      }
      int bytes = Json.write(output).getBytes(StandardCharsets.UTF_8).length;
      if (bytes > ELISION_BYTES) {
        ObjectNode node = (ObjectNode) step;
        String id = node.path("id").asString();
        node.putNull("output");
        ObjectNode note = node.putObject("output_elided");
        note.put("bytes", bytes);
        if (surface == Surface.MCP) {
          note.put(
              "note",
              "Output of "
                  + Describe.bytes(bytes)
                  + " elided. Fetch it with "
                  + surface.fetchOutput(run.runId(), id)
                  + " (an answer over "
                  + dev.cortex.mcp.tool.AnswerBound.MAX_CHARS
                  + " characters comes as a file and a 2 KB preview).");
          note.set("runs_show", Json.tree(java.util.Map.of("run_id", run.runId(), "activity", id)));
        } else {
          note.put(
              "note",
              "Output of "
                  + Describe.bytes(bytes)
                  + " elided. Print it with: "
                  + surface.fetchOutput(run.runId(), id));
          note.put("command", surface.fetchOutput(run.runId(), id));
        }
      }
    }
    return tree;
  }

  /** The runs_show arguments that fetch one step's full output, as JSON text. */
  static String fetchCall(String runId, String stepId) {
    return "{\"run_id\":\"" + runId + "\",\"activity\":\"" + stepId + "\"}";
  }
}
