package dev.cortex.cli.workflows;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.tools.Surface;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** {@code cortex runs}: list, show, cancel and resume workflow runs. */
@Command(
    name = "runs",
    mixinStandardHelpOptions = true,
    description = "Inspect, cancel and resume workflow runs.")
public final class RunsCommand implements Callable<Integer> {
  /** Who stops a run through {@code cortex runs cancel}. */
  static final String CANCELLED_BY_PERSON =
      "person through cortex runs cancel (user " + System.getProperty("user.name", "?") + ")";

  private final Io io;

  public RunsCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(
        io, "cortex runs: say 'list', 'show RUN', 'cancel RUN' or 'resume RUN'.");
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List runs, newest first.")
  public static final class ListRuns implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    @Option(names = "--workflow", description = "Only runs of this workflow name.")
    String workflow;

    @Option(
        names = "--status",
        description =
            "Only runs in this status: running, succeeded, failed, interrupted, cancelled.")
    String status;

    @Option(names = "--since", description = "Only runs started at or after this ISO-8601 instant.")
    String since;

    @Option(
        names = "--limit",
        description = "How many runs at most (1-200, default 20).",
        defaultValue = "20")
    int limit;

    public ListRuns(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.guarded(
          io,
          () -> {
            if (limit < 1 || limit > 200) {
              throw ToolException.invalidArgument("--limit must be between 1 and 200");
            }
            answer.print(
                io,
                new Services(io).workflows().list(workflow, status, since, limit),
                listed -> WorkflowText.runs(listed, limit));
            return CortexCommand.OK;
          });
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a run's trace.")
  public static final class ShowRun implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--activity", paramLabel = "STEP", description = "Show one step's full record.")
    String activity;

    @Option(names = "--full", description = "Show every output inline.")
    boolean full;

    public ShowRun(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            JsonNode shown = workflows.showRun(runId, activity, full, Surface.CLI);
            answer.print(
                io,
                shown,
                t -> activity != null ? WorkflowText.step(t) : WorkflowText.trace(t, full));
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = {
        "Stop a running (or interrupted) run: its running step's processes are ended, no later"
            + " step starts, and the run ends cancelled with who stopped it and when in its trace.",
        "Prints the trace; exits 0 once the run is cancelled, 1 when it already ended."
      })
  public static final class CancelRun implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, kept in the trace.")
    String reason;

    public CancelRun(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            JsonNode trace = workflows.cancel(runId, CANCELLED_BY_PERSON, reason, Surface.CLI);
            answer.print(io, trace, t -> WorkflowText.trace(t, false));
            return trace.path("status").asString("").equals("cancelled")
                ? CortexCommand.OK
                : CortexCommand.FAILED;
          });
    }
  }

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume an interrupted or failed run from its first unfinished step.")
  public static final class ResumeRun implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();
    @Mixin WorkflowVerb.Progress progress = new WorkflowVerb.Progress();

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--full", description = "Print every output inline.")
    boolean full;

    public ResumeRun(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            RunRecord run = workflows.resume(runId, progress.listener(io)).await();
            return WorkflowVerb.ended(io, answer, run, full);
          });
    }
  }
}
