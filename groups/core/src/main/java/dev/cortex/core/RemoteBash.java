package dev.cortex.core;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.Spill;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.Waits;
import java.time.Duration;

/** {@code remote_bash}: a shell command on a remote device. */
final class RemoteBash {
  static final String NAME = "remote_bash";
  static final int SPILL_CHARS = 30_000;

  /** What the hub waits beyond the command's own timeout, for its answer to come back. */
  private static final Duration ANSWER = Duration.ofSeconds(15);

  private final Remote remote;
  private final JobWake wake;

  RemoteBash(Remote remote, JobWake wake) {
    this.remote = remote;
    this.wake = wake;
  }

  record Arguments(
      String device,
      String command,
      Integer timeout,
      String description,
      Boolean runInBackground,
      Boolean wakeWhenDone,
      String wakeIntent) {}

  /**
   * @param exitCode the command's exit code; null for a background job, which is still running
   */
  record Result(
      String device,
      Integer exitCode,
      Spill.SpillableText output,
      long outputBytes,
      boolean cutOnDevice,
      boolean timedOut,
      boolean cancelled,
      long durationMs,
      String note,
      Actions.JobInfo job) {}

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Run a command on a remote device")
        .description(
            "Runs a shell command on a remote device through its cortex client: a login shell"
                + " (bash -lc; cmd /c on Windows devices), standard error merged into the output in"
                + " order. Returns the exit code and the output; a command still running at its"
                + " timeout (default 120 s, at most 600) is stopped with everything it started and"
                + " reports exit code 124. Processes a command leaves behind are stopped when it"
                + " ends: for servers, training runs and other long work set run_in_background,"
                + " which starts a job and returns its id at once; then follow it with remote_job."
                + " Output over "
                + SPILL_CHARS
                + " characters is saved under $CORTEX_HOME/tmp/tool-results/ and the result"
                + " carries the path and a 2 KB preview. To read, find or search files prefer"
                + " remote_read, remote_glob and remote_grep. Progress notifications carry the"
                + " newest output line while the command runs.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required(
                    "command",
                    Schema.string("The command, as you would type it in a shell.", 1, 100_000))
                .optional(
                    "timeout",
                    Schema.withDefault(
                        Schema.integer(
                            "Seconds the command may run. Ignored with run_in_background.",
                            Actions.MIN_TIMEOUT_SECONDS,
                            Actions.MAX_TIMEOUT_SECONDS),
                        120))
                .optional(
                    "description",
                    Schema.string(
                        "What the command does, in 5-10 words (shown in job lists and logs).",
                        1,
                        200))
                .optional(
                    "run_in_background",
                    Schema.bool(
                        "Start the command as a background job that keeps running (and keeps its"
                            + " output and exit code on the device); returns the job at once."))
                .optional(
                    "wake_when_done",
                    Schema.bool(
                        "With run_in_background, from a session: arm a waitpoint that fires when"
                            + " the job ends (ok for exit code 0, else fail, with the end of its"
                            + " output), so that you can end your turn and be woken instead of"
                            + " polling. The job carries the waitpoint's id."))
                .optional(
                    "wake_intent",
                    Schema.string(
                        "With wake_when_done: what you mean to do when the job ends; the wake"
                            + " message gives it back to you.",
                        1,
                        Waits.MAX_INTENT))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device the command ran on."))
                .required(
                    "exit_code",
                    Schema.nullable(
                        Schema.integer(
                            "The command's exit code; 124 when its timeout stopped it. Null for a"
                                + " background job, which is still running: remote_job gives its"
                                + " exit code once it ends.")))
                .required(
                    "output",
                    Spill.SpillableText.schema("Standard output and error as they interleaved."))
                .required("output_bytes", Schema.integer("Bytes of output in all."))
                .required(
                    "cut_on_device",
                    Schema.bool(
                        "True when the device kept only the start and end of a very large output."))
                .required("timed_out", Schema.bool("True when the timeout stopped the command."))
                .required("cancelled", Schema.bool("True when the call was cancelled."))
                .required("duration_ms", Schema.integer("How long the command ran."))
                .required("note", Schema.nullable(Schema.string("What else to know, if anything.")))
                .required("job", Schema.nullable(RemoteJob.jobSchema()))
                .build())
        .hints(new ToolHints(false, true, false, true))
        .spillLimit(SPILL_CHARS)
        .blocking()
        .build();
  }

  /** The waitpoint a background job will signal when it ends. */
  private Waits.Created arm(ToolCall call, Arguments args) {
    String label =
        args.description() != null
            ? args.description()
            : "job: "
                + (args.command().length() > 80
                    ? args.command().substring(0, 80) + "…"
                    : args.command());
    label = label.replaceAll("\\p{Cntrl}", " ").strip();
    String intent =
        args.wakeIntent() != null
            ? args.wakeIntent()
            : "See how the background job on " + args.device() + " ended and go on from there.";
    return wake.arm(
        call, new Waits.Create(null, label, intent, null, null, null, null, null, args.device()));
  }

  private Result handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    int timeout = args.timeout() == null ? Actions.DEFAULT_TIMEOUT_SECONDS : args.timeout();
    boolean background = Boolean.TRUE.equals(args.runInBackground());
    boolean wakeWhenDone = Boolean.TRUE.equals(args.wakeWhenDone());
    if (!wakeWhenDone && args.wakeIntent() != null) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, "wake_intent goes with wake_when_done.");
    }
    if (wakeWhenDone && !background) {
      throw new ToolException(
          ErrorCodes.INVALID_ARGUMENT,
          "wake_when_done needs run_in_background: only a background job can wake you when it"
              + " ends.");
    }
    Waits.Created waitpoint = wakeWhenDone ? arm(call, args) : null;
    Actions.BashResult result;
    try {
      result =
          remote.run(
              call,
              args.device(),
              Action.BASH,
              new Actions.Bash(
                  args.command(),
                  timeout,
                  args.description(),
                  background,
                  waitpoint == null
                      ? null
                      : new Actions.JobSignal(waitpoint.waitpoint().id(), waitpoint.secret())),
              background ? Duration.ofSeconds(30) : Duration.ofSeconds(timeout).plus(ANSWER),
              Actions.BashResult.class);
    } catch (RuntimeException e) {
      if (waitpoint != null) {
        wake.cancel(call, waitpoint.waitpoint().id());
      }
      throw e;
    }
    return new Result(
        args.device(),
        // A job just started has no exit code yet; the device's 0 only says it started.
        result.job() != null ? null : result.exitCode(),
        call.fitText(result.output() == null ? "" : result.output()),
        result.outputBytes(),
        result.truncated(),
        result.timedOut(),
        result.cancelled(),
        result.durationMillis(),
        result.note(),
        result.job());
  }
}
