package dev.cortex.cli.workflows;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.Terminal;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.tools.Surface;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The verbs about one workflow: {@code check} preflights it, {@code show} describes it, {@code run}
 * runs it. The runs themselves are {@link RunsCommand}'s, the library {@link LibraryCommand}'s.
 */
public final class WorkflowCommands {
  private WorkflowCommands() {}

  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = "Preflight a workflow: validate it and its parameters, run nothing.")
  public static final class Check implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Target target = new WorkflowVerb.Target();
    @Mixin WorkflowVerb.Params params = new WorkflowVerb.Params();
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    public Check(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            answer.print(
                io,
                workflows.checkReport(workflows.prepare(target.workflow, params.values())),
                WorkflowText::check);
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Describe a workflow: parameters, capabilities, servers and steps.")
  public static final class Show implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Target target = new WorkflowVerb.Target();
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.run(
          io,
          workflows -> {
            answer.print(io, workflows.show(target.workflow), WorkflowText::show);
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description = {
        "Run a workflow and print how it went: each step's outcome (--json: the trace, outputs"
            + " over ~2 KB elided unless --full).",
        "Asks y/N on the terminal first (and, for a remote workflow not yet trusted at its"
            + " commit, whether to trust it); without a terminal it needs --yes or"
            + " CORTEX_ASSUME_YES=1. On a terminal, each step is shown as it completes. Ctrl-C"
            + " stops the run (it ends cancelled). Exits 1 when the run fails, is cancelled or"
            + " is not confirmed."
      })
  public static final class Run implements Callable<Integer> {
    private final Io io;
    @Mixin WorkflowVerb.Target target = new WorkflowVerb.Target();
    @Mixin WorkflowVerb.Params params = new WorkflowVerb.Params();
    @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();
    @Mixin WorkflowVerb.Progress progress = new WorkflowVerb.Progress();

    @Option(
        names = "--detach",
        description =
            "Print the run id and return; the run goes on in the background of this process until it ends.")
    boolean detach;

    @Option(names = "--full", description = "Print every output inline.")
    boolean full;

    @Option(
        names = {"-y", "--yes"},
        description =
            "Confirm the run (and trust in a remote workflow at its commit) without asking, as"
                + " CORTEX_ASSUME_YES=1 does.")
    boolean yes;

    @Option(
        names = "--notify-session",
        paramLabel = "SESSION",
        description =
            "When the run ends, tell this session of the agent server (a turn whose cortex_context"
                + " has callbackSource workflow:RUN_ID).")
    String notifySession;

    public Run(Io io) {
      this.io = io;
    }

    /** Tells {@link #notifySession} that {@code run} ended; a failure to is said, not fatal. */
    private void notify(RunRecord run) {
      if (notifySession == null) {
        return;
      }
      String status = run.status().name().toLowerCase(java.util.Locale.ROOT);
      try {
        io.agentServer()
            .post(
                dev.cortex.protocol.session.Schedules.CALLBACK,
                new dev.cortex.protocol.session.Schedules.Callback(
                    "workflow:" + run.runId(),
                    "The workflow run "
                        + run.runId()
                        + " of "
                        + run.workflow()
                        + " ended: "
                        + status
                        + ". Its trace: cortex runs show "
                        + run.runId()
                        + ".",
                    notifySession,
                    null,
                    null,
                    null,
                    null,
                    "workflow:" + run.runId()),
                dev.cortex.protocol.session.Schedules.Called.class,
                java.time.Duration.ofSeconds(30),
                dev.cortex.base.Cancellation.NONE);
        io.err().println("cortex: told session " + notifySession + " that the run ended.");
      } catch (dev.cortex.base.CodedException e) {
        io.err().println("cortex: session " + notifySession + " was not told: " + e.getMessage());
      }
    }

    @Override
    public Integer call() throws Exception {
      return WorkflowVerb.guarded(io, this::run);
    }

    private int run() throws Exception {
      Services services = new Services(io);
      Workflows workflows = services.workflows();
      Workflows.Prepared prepared = workflows.prepare(target.workflow, params.values());
      workflows.confirm(prepared, new CliConsent(io, yes, Terminal.stdinIsTerminal()), Surface.CLI);
      RunHandle handle = workflows.start(prepared, progress.listener(io));
      Consumer<RunRecord> awaited = run -> {};
      if (!detach || workflows.engine().busy()) {
        // This process waits for the run: Ctrl-C stops it rather than leaving it behind.
        awaited = StopOnInterrupt.install(io, handle);
      }
      if (detach) {
        io.out().println(handle.runId());
        io.err()
            .println(
                "cortex: run "
                    + handle.runId()
                    + (workflows.engine().busy()
                        ? " started; this process stays until it ends."
                        : " started on " + workflows.engine().name() + ".")
                    + " Follow it with: cortex runs show "
                    + handle.runId());
        services.awaitRuns();
        if (notifySession != null) {
          notify(handle.await());
        }
        return CortexCommand.OK;
      }
      RunRecord run = handle.await();
      awaited.accept(run);
      notify(run);
      return WorkflowVerb.ended(io, answer, run, full);
    }
  }
}
