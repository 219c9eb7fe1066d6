package dev.cortex.core;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code remote_job}: the background jobs that {@code remote_bash} started with {@code
 * run_in_background}: list them, see one's state and exit code, read the end of its output, or stop
 * it.
 */
final class RemoteJob {
  static final String NAME = "remote_job";

  private final Remote remote;

  RemoteJob(Remote remote) {
    this.remote = remote;
  }

  record Arguments(String device, String jobId, String action, Integer tailBytes) {}

  record Result(String device, List<Actions.JobInfo> jobs, String output, boolean outputCut) {}

  static Map<String, Object> jobSchema() {
    return Schema.object()
        .description("A background job on the device.")
        .required("id", Schema.string("The job's id, e.g. 20261201-101500-3fa2c1."))
        .required("command", Schema.string("The command it runs."))
        .required("description", Schema.nullable(Schema.string("What it does, as given.")))
        .required("pid", Schema.integer("The process id of its shell on the device."))
        .required(
            "state",
            Schema.enumOf(
                "running; exited (see exit_code); killed (stopped by remote_job); lost (ended"
                    + " without recording an exit code, e.g. the device restarted).",
                "running",
                "exited",
                "killed",
                "lost"))
        .required("exit_code", Schema.nullable(Schema.integer("Its exit code, once exited.")))
        .required("started_at", Schema.string("When it started (ISO 8601)."))
        .required("ended_at", Schema.nullable(Schema.string("When it ended (ISO 8601).")))
        .required("log_path", Schema.string("Its combined output on the device."))
        .required("log_bytes", Schema.integer("How large that output is now."))
        .required(
            "waitpoint",
            Schema.nullable(
                Schema.string(
                    "The waitpoint it signals when it ends (remote_bash wake_when_done), or"
                        + " null.")))
        .build();
  }

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Follow background jobs on a remote device")
        .description(
            "Follows the background jobs remote_bash started with run_in_background on a device:"
                + " action 'list' (default without job_id) lists them newest first; 'status'"
                + " (default with job_id) gives one job's state and exit code; 'output' returns the"
                + " end of its output (tail_bytes, default 16 KB, at most 1 MB); 'kill' stops the"
                + " job and everything it started. Jobs keep running when the session or the"
                + " device's client restarts; their output and exit code stay on the device.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .optional(
                    "job_id",
                    Schema.pattern(
                        "The job's id as remote_bash returned it (run_in_background), e.g."
                            + " 20261130-094512-a1b2c3.",
                        "^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$"))
                .optional(
                    "action",
                    Schema.enumOf(
                        "list (the device's jobs), status (one job's state and exit code), output (the"
                            + " end of its output) or kill; default status with a job_id, else list.",
                        "list",
                        "status",
                        "output",
                        "kill"))
                .optional(
                    "tail_bytes",
                    Schema.integer(
                        "For output: how many bytes of the end (default 16384).", 1, 1_048_576))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("jobs", Schema.array("The jobs asked about.", jobSchema(), 0, 0, false))
                .required(
                    "output",
                    Schema.nullable(Schema.string("For output: the end of the job's output.")))
                .required("output_cut", Schema.bool("True when earlier output was left out."))
                .build())
        .hints(new ToolHints(false, true, false, true))
        .blocking()
        .build();
  }

  private Result handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Actions.JobResult result =
        remote.run(
            call,
            args.device(),
            Action.JOB,
            new Actions.Job(args.action(), args.jobId(), args.tailBytes()),
            Duration.ofSeconds(30),
            Actions.JobResult.class);
    return new Result(args.device(), result.jobs(), result.output(), result.outputCut());
  }
}
