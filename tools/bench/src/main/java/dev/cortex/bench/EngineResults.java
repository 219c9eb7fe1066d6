package dev.cortex.bench;

import java.time.Instant;
import java.util.List;

/**
 * Everything one run of the engine benchmark measured. Durations are in nanoseconds; each array
 * holds one sample per measured round.
 *
 * @param fileSystem the temporary Cortex home, and its file system type
 * @param cases one per workflow length and variant, in the order measured
 */
record EngineResults(
    Instant at,
    EngineOptions options,
    String client,
    String jvmFlags,
    String host,
    String load,
    String fileSystem,
    List<Case> cases) {

  /**
   * One workflow length and variant.
   *
   * @param engine wall time of a whole run: {@code start} to {@code await} returning
   * @param steps the run's steps alone: from the engine's {@code planned} to its last {@code
   *     stepEnded}, so without creating the run and finishing it
   * @param runner the steps run by a {@code StepRunner} as the engine runs them (templates, input
   *     check, activity, step record), outputs put into the context, nothing persisted
   * @param jq the same expressions in a plain loop over a {@code Jq.Context}, each output put into
   *     the context as the engine does
   * @param sqlite {@code RunStore.saveStep} alone for every step, one commit each
   * @param sqliteSmall the same for a run whose stored manifest is a line of text: each step also
   *     updates the run's row, which holds the manifest
   * @param trace {@code TraceFiles.write} alone after every step, the run record growing as in a
   *     run
   * @param stepHead mean duration of one step among the first tenth of a run's steps
   * @param stepTail the same among the last tenth
   * @param traceHead mean duration of one trace write among the first tenth of the steps
   * @param traceTail the same among the last tenth
   * @param jsonHead mean duration of serialising the run record as a trace write does ({@code
   *     Json.writePretty}), timed apart from the write, among the first tenth of the steps
   * @param jsonTail the same among the last tenth
   * @param traceBytes size of the finished run's trace file
   * @param manifestBytes size of the manifest text, which the run's row holds
   */
  record Case(
      EngineWorkflow.Variant variant,
      int stepCount,
      long[] engine,
      long[] steps,
      long[] runner,
      long[] jq,
      long[] sqlite,
      long[] sqliteSmall,
      long[] trace,
      long[] stepHead,
      long[] stepTail,
      long[] traceHead,
      long[] traceTail,
      long[] jsonHead,
      long[] jsonTail,
      long traceBytes,
      long manifestBytes) {

    /** The median of {@code samples} divided by the number of steps, in microseconds. */
    double perStepMicros(long[] samples) {
      return median(samples) / 1e3 / stepCount;
    }

    static double median(long[] samples) {
      return Stats.of(samples).p50();
    }
  }
}
