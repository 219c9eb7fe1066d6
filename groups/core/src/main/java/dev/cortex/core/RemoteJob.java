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
 * {@code remote_job} and {@code remote_job_kill}: the background jobs that {@code remote_bash}
 * started with {@code run_in_background}. {@code remote_job} only reads (list them, see one's state
 * and exit code, read the end of its output); {@code remote_job_kill} stops one, which cannot be
 * undone. Two tools, so that each carries annotations that are true of every call, and a read-only
 * server can still follow jobs.
 */
final class RemoteJob {
  static final String NAME = "remote_job";
  static final String KILL = "remote_job_kill";

  private final Remote remote;

  RemoteJob(Remote remote) {
    this.remote = remote;
  }

  record Arguments(String device, String jobId, String action, Integer tailBytes) {}

  record KillArguments(String device, String jobId) {}

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
        .required("started_at", Schema.instant("When it started."))
        .required("ended_at", Schema.nullable(Schema.instant("When it ended.")))
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

  private static Map<String, Object> jobIdSchema() {
    return Schema.pattern(
        "The job's id as remote_bash returned it (run_in_background), e.g."
            + " 20261130-094512-a1b2c3.",
        "^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$");
  }

  private static Map<String, Object> resultSchema() {
    return Schema.object()
        .required("device", Schema.string("The device."))
        .required("jobs", Schema.array("The jobs asked about.", jobSchema(), 0, 0, false))
        .required(
            "output", Schema.nullable(Schema.string("For output: the end of the job's output.")))
        .required("output_cut", Schema.bool("True when earlier output was left out."))
        .build();
  }

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Follow background jobs on a remote device")
        .description(
            "Follows the background jobs remote_bash started with run_in_background on a device:"
                + " action 'list' (default without job_id) lists them newest first; 'status'"
                + " (default with job_id) gives one job's state and exit code; 'output' returns the"
                + " end of its output (tail_bytes, default 16 KB, at most 1 MB). It only reads; to"
                + " stop a job use remote_job_kill. Jobs keep running when the session or the"
                + " device's client restarts; their output and exit code stay on the device.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .optional("job_id", jobIdSchema())
                .optional(
                    "action",
                    Schema.enumOf(
                        "list (the device's jobs), status (one job's state and exit code) or output"
                            + " (the end of its output); default status with a job_id, else list.",
                        "list",
                        "status",
                        "output"))
                .optional(
                    "tail_bytes",
                    Schema.withDefault(
                        Schema.integer("For output: how many bytes of the end.", 1, 1_048_576),
                        16384))
                .build())
        .output(resultSchema())
        .hints(new ToolHints(true, false, true, true))
        .blocking()
        .build();
  }

  ToolSpec kill() {
    return ToolSpec.builder(KILL, this::kill)
        .title("Stop a background job on a remote device")
        .description(
            "Stops a background job that remote_bash started with run_in_background: the job and"
                + " every process it started are ended (it cannot be resumed), and its state"
                + " becomes killed. Returns the job as remote_job's status shows it. A job that"
                + " already ended is left as it is. To look at jobs use remote_job.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required("job_id", jobIdSchema())
                .build())
        .output(resultSchema())
        .hints(new ToolHints(false, true, true, true))
        .blocking()
        .build();
  }

  private Result kill(ToolCall call) {
    KillArguments args = call.arguments(KillArguments.class);
    Actions.JobResult result =
        remote.run(
            call,
            args.device(),
            Action.JOB,
            new Actions.Job("kill", args.jobId(), null),
            Duration.ofSeconds(30),
            Actions.JobResult.class);
    return new Result(args.device(), result.jobs(), result.output(), result.outputCut());
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
