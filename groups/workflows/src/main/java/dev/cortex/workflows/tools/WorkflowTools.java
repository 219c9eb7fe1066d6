package dev.cortex.workflows.tools;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.consent.ConsentPolicy;
import dev.cortex.workflows.run.RunCancellation;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The tools of the workflows group, adapters from validated arguments to {@link Workflows}: the
 * seed's six and runs_cancel, which only stops runs. There is deliberately no tool to save a
 * workflow, log in or configure: those stay with humans.
 */
public final class WorkflowTools {
  private static final ToolHints RUNS = new ToolHints(false, true, false, true);

  /**
   * check and show: they change nothing, but a remote ref's repository is fetched from its host, so
   * they reach outside this machine.
   */
  private static final ToolHints READS_REFS = new ToolHints(true, false, true, true);

  /** runs_cancel: ending a run's process trees cannot be undone; a second call changes nothing. */
  private static final ToolHints STOPS = new ToolHints(false, true, true, false);

  private final Supplier<Workflows> workflows;
  private final ConsentPolicy consent;

  public WorkflowTools(Supplier<Workflows> workflows, ConsentPolicy consent) {
    this.workflows = workflows;
    this.consent = consent;
  }

  /** The statuses a run can have, as tools report and filter them. */
  static final String[] RUN_STATUSES = WorkflowSchemas.RUN_STATUSES;

  public List<ToolSpec> specs() {
    return List.of(check(), show(), run(), runsList(), runsShow(), runsCancel(), status());
  }

  private static Map<String, Object> workflowArgument() {
    return Schema.string(
        "The workflow: a path to a YAML manifest (absolute, or relative to the server's working"
            + " directory), the name of a workflow saved in the local library, or a remote ref"
            + " into a Git repository: HOST/OWNER/REPO[/SUBPATH][@REF], OWNER/REPO[@REF] (on"
            + " github.com) or git+URL[//SUBPATH][@REF]. With no @REF the highest vX.Y.Z tag is"
            + " taken; @v1 is the highest v1.x.y tag; 7-40 hex digits name a commit.",
        1,
        4096);
  }

  private static Map<String, Object> runIdArgument() {
    return Schema.withExamples(
        Schema.string("The run's id, as run or runs_list gave it.", 1, 64),
        "20261130T094512Z-k3m9x2qa");
  }

  private static Map<String, Object> paramsArgument() {
    return Schema.object()
        .description(
            "Parameter values by name, each as JSON of the type the manifest declares for it: a"
                + " number as 3 (not \"3\"), a boolean as true, an array as [..]; show lists the"
                + " parameters, their types and defaults. Omitted parameters take their defaults;"
                + " a name the workflow does not declare is an error.")
        .open()
        .build();
  }

  private ToolSpec check() {
    return ToolSpec.builder("check", this::check)
        .title("Check a workflow")
        .description(
            "Preflights a workflow without running anything: validates the manifest (every problem"
                + " with file, line and field), resolves the parameters (type, required, enum,"
                + " min/max), checks the declared capabilities, that the programs, MCP servers,"
                + " database drivers and model API keys the steps need exist here, and that every"
                + " input written as a literal is one the step's kind takes (e.g. exactly one of"
                + " argv and script). Returns the resolved parameters"
                + " and the steps. Never asks the human anything: consent_required is true when a"
                + " run of this remote workflow would first ask the human to trust it at this"
                + " commit. For a remote ref it reaches the network: the repository is fetched from"
                + " its host (over SSH with the server user's keys for ssh refs) unless the ref is a"
                + " full commit already in the local cache. Use it before run, with the parameters"
                + " you mean to pass, to learn whether a run would start here; a problem is an"
                + " error (INVALID_MANIFEST, INVALID_PARAMETERS, PREFLIGHT_FAILED) that says what to"
                + " fix. To learn what a workflow takes and does, use show.")
        .input(
            Schema.object()
                .required("workflow", workflowArgument())
                .optional("params", paramsArgument())
                .build())
        .output(WorkflowSchemas.check())
        .hints(READS_REFS)
        .blocking()
        .build();
  }

  private Object check(ToolCall call) {
    Workflows service = workflows.get();
    String ref = call.arguments().path("workflow").asString();
    return service.checkReport(
        service.prepare(ref, Workflows.Params.json(call.arguments().get("params"))));
  }

  private ToolSpec show() {
    return ToolSpec.builder(
            "show", call -> workflows.get().show(call.arguments().path("workflow").asString()))
        .title("Show a workflow")
        .description(
            "Describes a workflow: name, version, description, its parameters with types and"
                + " defaults, declared capabilities, MCP servers, and each step's kind and inputs."
                + " A remote ref's repository is fetched from its host, as for check. Use it to"
                + " learn which parameters to pass and what the steps do; it takes only the"
                + " workflow (no params) and checks nothing beyond the manifest (whether a run"
                + " would start here is check's question).")
        .input(Schema.object().required("workflow", workflowArgument()).build())
        .output(WorkflowSchemas.show())
        .hints(READS_REFS)
        .blocking()
        .build();
  }

  private ToolSpec run() {
    return ToolSpec.builder("run", this::run)
        .title("Run a workflow")
        .description(
            "Runs a workflow with the given parameters and returns its trace when it ends: status,"
                + " and per step status, attempts, duration, cost, output and output_summary. Blocks"
                + " until the workflow finishes; the server sets no timeout. Outputs over ~2 KB are"
                + " elided from the returned trace, each with the runs_show call that fetches it."
                + " With a progressToken, sends the plan and then one notification per completed"
                + " step. Cancelling the request suppresses the answer but not the run (its trace"
                + " is kept, see runs_list), unless stop_on_cancel is true; runs_cancel stops a"
                + " run. detach: true returns the run id at once instead, for"
                + " clients that give up on long calls; follow the run with runs_show. Every run"
                + " first asks the human to confirm it (the workflow, its source and parameters)"
                + " through the client's elicitation form or a dialog on the server's machine, and"
                + " a remote workflow not yet trusted at its commit also asks for trust; declined,"
                + " unanswered within the server's wait (45 s unless it is set longer), or no way"
                + " to ask: the call fails with a CONSENT_ code and nothing runs. A failed step is"
                + " no tool error: the trace says status failed and why. Call check first when"
                + " unsure of the parameters.")
        .input(
            Schema.object()
                .required("workflow", workflowArgument())
                .optional("params", paramsArgument())
                .optional(
                    "detach",
                    Schema.withDefault(
                        Schema.bool(
                            "Return the run id at once and let the run go on (false: wait for the"
                                + " end)."),
                        false))
                .optional(
                    "stop_on_cancel",
                    Schema.withDefault(
                        Schema.bool(
                            "Stop the run too (as runs_cancel does) when this call is cancelled"
                                + " with notifications/cancelled (false: the run goes on to its"
                                + " end; only the answer is dropped)."),
                        false))
                .build())
        .output(WorkflowSchemas.run())
        .hints(RUNS)
        .blocking()
        .build();
  }

  private Object run(ToolCall call) {
    Workflows service = workflows.get();
    JsonNode args = call.arguments();
    Workflows.Prepared prepared =
        service.prepare(
            args.path("workflow").asString(), Workflows.Params.json(args.get("params")));
    service.confirm(prepared, consent.forCall(call.context().elicitor()));
    boolean detach = args.path("detach").asBoolean(false);
    RunHandle handle =
        service.start(prepared, detach ? RunListener.NONE : progress(call.context().progress()));
    if (args.path("stop_on_cancel").asBoolean(false)) {
      call.context()
          .cancellation()
          .onCancel(
              () ->
                  handle.cancel(
                      new RunCancellation(
                          CANCELLED_CALL,
                          call.context().clock().instant().toString(),
                          "the client cancelled the run call (stop_on_cancel)")));
    }
    if (detach) {
      Map<String, Object> detached = new LinkedHashMap<>();
      detached.put("run_id", handle.runId());
      detached.put("status", "running");
      detached.put("detached", true);
      detached.put(
          "note",
          "The run goes on in the server. Follow it with runs_show {\"run_id\":\""
              + handle.runId()
              + "\"}; it is done when status is no longer running.");
      return detached;
    }
    try {
      return TraceView.of(handle.await(), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolException(
          dev.cortex.base.ErrorCodes.UNAVAILABLE,
          "stopped waiting for run " + handle.runId() + "; it goes on, see runs_show");
    }
  }

  /** Progress notifications of a run: the plan, then one per completed step, live. */
  static RunListener progress(ToolContext.ProgressSink sink) {
    if (sink == ToolContext.ProgressSink.NONE) {
      return RunListener.NONE;
    }
    return new RunListener() {
      @Override
      public void planned(RunRecord run) {
        StringBuilder plan =
            new StringBuilder("plan: run ")
                .append(run.runId())
                .append(" of ")
                .append(run.workflow())
                .append(' ')
                .append(run.version())
                .append(", ")
                .append(run.stepsTotal())
                .append(run.stepsTotal() == 1 ? " step:" : " steps:");
        for (StepRecord step : run.steps()) {
          plan.append(' ').append(step.id()).append(" (").append(step.kind()).append(')');
          if (step.status().done()) {
            plan.append(" [").append(step.status().wire()).append(']');
          }
          plan.append(',');
        }
        plan.setLength(plan.length() - 1);
        sink.report(run.stepsCompleted(), (double) run.stepsTotal(), plan.toString());
      }

      @Override
      public void stepEnded(RunRecord run, int position) {
        StepRecord step = run.steps().get(position);
        String message =
            "step "
                + (position + 1)
                + "/"
                + run.stepsTotal()
                + " '"
                + step.id()
                + "' "
                + step.status().wire()
                + " in "
                + step.durationMs()
                + " ms: "
                + (step.error() == null ? step.outputSummary() : step.error().message());
        sink.report(position + 1, (double) run.stepsTotal(), message);
      }
    };
  }

  private ToolSpec runsList() {
    return ToolSpec.builder("runs_list", this::runsList)
        .title("List workflow runs")
        .description(
            "Lists runs newest first, with status, times, step counts and cost. Filter by workflow"
                + " name, status or start time. Runs whose process died are reported interrupted"
                + " (a human resumes them with `cortex runs resume RUN`); stopped runs are"
                + " cancelled, with who cancelled them and when. Use it to find a run's id; read one"
                + " run's steps and outputs with runs_show, and the engine's state with status.")
        .input(
            Schema.object()
                .optional(
                    "workflow",
                    Schema.string(
                        "Only runs of the workflow with this name, as its manifest names it (e.g."
                            + " shell-pipeline; not a path or a remote ref).",
                        1,
                        256))
                .optional("status", Schema.enumOf("Only runs in this status.", RUN_STATUSES))
                .optional(
                    "since",
                    Schema.withExamples(
                        Schema.withFormat(
                            Schema.string(
                                "Only runs started at or after this ISO-8601 instant.", 1, 64),
                            "date-time"),
                        "2026-11-30T09:00:00Z"))
                .optional(
                    "limit",
                    Schema.withDefault(Schema.integer("How many runs at most.", 1, 200), 20))
                .build())
        .output(WorkflowSchemas.runsList())
        .hints(ToolHints.readOnlyLocal())
        .blocking()
        .build();
  }

  private Object runsList(ToolCall call) {
    JsonNode args = call.arguments();
    return workflows
        .get()
        .list(
            text(args, "workflow"),
            text(args, "status"),
            text(args, "since"),
            args.path("limit").asInt(20));
  }

  private ToolSpec runsShow() {
    return ToolSpec.builder("runs_show", this::runsShow)
        .title("Show a workflow run")
        .description(
            "Shows a run's trace: status, times, cost, and each step's status, attempts, duration,"
                + " cost, output and output_summary. Outputs over ~2 KB are elided unless full is"
                + " true; activity gives one step's record with its whole output. A running run"
                + " shows its progress so far. Use it to follow a detached run until its status"
                + " is no longer running, and to fetch an output a trace elided; find run ids with"
                + " runs_list.")
        .input(
            Schema.object()
                .required("run_id", runIdArgument())
                .optional(
                    "activity",
                    Schema.string(
                        "A step id of the run, e.g. fetch: return that step's record with its whole"
                            + " output (as an elided output's note names it).",
                        1,
                        128))
                .optional(
                    "full",
                    Schema.withDefault(
                        Schema.bool(
                            "true: every output inline, however large (false: outputs over 2 KB"
                                + " are elided, each with the call that fetches it)."),
                        false))
                .build())
        .output(WorkflowSchemas.runsShow())
        .hints(ToolHints.readOnlyLocal())
        .blocking()
        .build();
  }

  private Object runsShow(ToolCall call) {
    JsonNode args = call.arguments();
    return workflows
        .get()
        .showRun(
            args.path("run_id").asString(),
            text(args, "activity"),
            args.path("full").asBoolean(false));
  }

  /** Who stops a run whose run call the client cancelled with stop_on_cancel. */
  static final String CANCELLED_CALL = "client through notifications/cancelled of its run call";

  /** Who stops a run through the tool. */
  static final String CANCEL_TOOL = "agent through runs_cancel";

  private ToolSpec runsCancel() {
    return ToolSpec.builder("runs_cancel", this::runsCancel)
        .title("Cancel a workflow run")
        .description(
            "Stops a run that is running (or was interrupted): the running step's whole process"
                + " tree is ended, no later step starts, and the run ends cancelled, its trace"
                + " saying who cancelled it, when and why. Waits up to 30 s for the run to end and"
                + " returns its trace (status cancelled; a run still running then has a note). A"
                + " cancelled run is not resumed. This tool only stops: it cannot start, resume or"
                + " approve anything; to look at a run use runs_show. A run that already ended is a"
                + " RUN_STATE error.")
        .input(
            Schema.object()
                .required("run_id", runIdArgument())
                .optional(
                    "reason",
                    Schema.string(
                        "Why the run is stopped, in a sentence a person reads later in its trace.",
                        1,
                        500))
                .build())
        .output(WorkflowSchemas.runsCancel())
        .hints(STOPS)
        .blocking()
        .build();
  }

  private Object runsCancel(ToolCall call) {
    JsonNode args = call.arguments();
    try {
      return workflows
          .get()
          .cancel(args.path("run_id").asString(), CANCEL_TOOL, text(args, "reason"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ToolException(
          dev.cortex.base.ErrorCodes.UNAVAILABLE,
          "stopped waiting for the cancelled run; see runs_show");
    }
  }

  private ToolSpec status() {
    return ToolSpec.builder("status", call -> workflows.get().status())
        .title("Workflow engine status")
        .description(
            "Reports the Cortex version, its home directory, the engine and whether it is"
                + " reachable, run counts by status, how many workflows the local library holds"
                + " and the step kinds it runs. Use it to learn whether workflows can run here"
                + " (engine.reachable) before a run, or why they cannot. It is no liveness probe of"
                + " the server (the evidence group's cortex_health answers that without opening"
                + " any database) and lists no runs (runs_list does).")
        .input(Schema.object().build())
        .output(WorkflowSchemas.status())
        .hints(ToolHints.readOnlyLocal())
        .blocking()
        .build();
  }

  private static String text(JsonNode args, String field) {
    JsonNode value = args.get(field);
    return value == null || value.isNull() ? null : value.asString();
  }
}
