package dev.cortex.workflows.temporal;

import dev.cortex.base.Json;
import dev.cortex.workflows.activity.Cost;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What crosses Temporal between the starter, the interpreter workflow and the activities. Every
 * payload is one JSON string written by Cortex's own mapper, so that the SDK's converter (Jackson
 * 2) never sees Cortex's records or trees.
 */
final class Payloads {
  private Payloads() {}

  /**
   * The interpreter's input: the run as recorded, the manifest text, the first step to run (after a
   * resumption, the first that did not complete), and the heartbeat timeout of its activities.
   */
  record Start(RunRecord run, String manifest, int first, long heartbeatMs) {}

  /**
   * One attempt's call: which run and step, the manifest (for its declared servers), the resolved
   * inputs, the step's timeout, and the run's context when the kind reads it.
   */
  record Call(
      String runId,
      String stepId,
      String kind,
      String location,
      String manifest,
      JsonNode with,
      Long timeoutMs,
      JsonNode context) {}

  /** A successful attempt: the activity's result and which attempt it was. */
  record Result(JsonNode output, String summary, Cost cost, int attempt) {}

  /** The details of a failed attempt: what it produced before failing, and which attempt it was. */
  record Failed(JsonNode output, int attempt) {}

  /** The answer to the progress query: the records of the steps that ended from a position on. */
  record Progress(List<StepRecord> steps) {}

  static String write(Object value) {
    return Json.write(value);
  }

  static <T> T read(String json, Class<T> type) {
    return Json.mapper().readValue(json, type);
  }

  /** Null for a missing or JSON-null tree. */
  static JsonNode orNull(JsonNode node) {
    return node == null || node.isNull() || node.isMissingNode() ? null : node;
  }
}
