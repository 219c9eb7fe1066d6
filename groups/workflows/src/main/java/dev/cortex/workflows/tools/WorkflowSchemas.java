package dev.cortex.workflows.tools;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.manifest.ManifestSchema;
import dev.cortex.workflows.manifest.ParameterType;
import dev.cortex.workflows.manifest.StepKind;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.StepStatus;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The output schemas of the workflow tools: every object closed, every field typed. What a workflow
 * itself carries (parameter values, step outputs, inputs as written) is declared as any JSON value,
 * under keys the schema constrains.
 */
final class WorkflowSchemas {
  private WorkflowSchemas() {}

  static final String[] RUN_STATUSES = wires(RunStatus.values());
  static final String[] STEP_STATUSES = wires(StepStatus.values());
  static final String[] KINDS = wires(StepKind.values());

  /** check's report. */
  static Map<String, Object> check() {
    return Schema.object()
        .required("ok", Schema.bool("Always true: a workflow that cannot run is an error instead."))
        .required("workflow", identity())
        .required("source", source())
        .required("parameters", parameterValues("The parameters as a run would get them."))
        .required("capabilities", capabilities())
        .required(
            "steps",
            Schema.array(
                "The steps, in order.",
                Schema.object()
                    .required("id", Schema.string("The step's id."))
                    .required("kind", Schema.enumOf("The step's kind.", KINDS))
                    .optional(
                        "capability",
                        Schema.string("The capability the kind needs, e.g. shell or mcp:github."))
                    .build(),
                0,
                0,
                false))
        .required("engine", Schema.string("The engine a run would go to: embedded or temporal."))
        .required(
            "consent_required",
            Schema.bool(
                "True when run would first ask the human to trust this remote workflow at this"
                    + " commit (every run is also confirmed on its own)."))
        .build();
  }

  /** show's description of a workflow. */
  static Map<String, Object> show() {
    return Schema.object()
        .required("workflow", identity())
        .required("source", source())
        .required(
            "parameters",
            Schema.map(
                "The parameters a run takes, by name.",
                ManifestSchema.IDENTIFIER,
                Schema.object()
                    .required(
                        "type",
                        Schema.enumOf("The parameter's type.", wires(ParameterType.values())))
                    .required("required", Schema.bool("Whether a run must give it."))
                    .optional("default", Schema.any("The value used when none is given."))
                    .optional("min", Schema.number("Least value, or least size of an array."))
                    .optional("max", Schema.number("Greatest value, or greatest size of an array."))
                    .optional(
                        "values",
                        Schema.array(
                            "The choices of an enum parameter.", Schema.string(null), 1, 0, false))
                    .optional("description", Schema.string("What the parameter is for."))
                    .build()))
        .required("capabilities", capabilities())
        .required(
            "servers",
            Schema.map(
                "The MCP servers the mcp steps call, by name.",
                ManifestSchema.IDENTIFIER,
                Schema.anyOf(
                    "One server: a command speaking MCP on stdio, or a streamable-HTTP URL.",
                    Schema.object()
                        .required(
                            "command",
                            Schema.array("The server's argv.", Schema.string(null), 1, 0, false))
                        .build(),
                    Schema.object().required("url", Schema.string("The server's URL.")).build())))
        .required("steps", Schema.array("The steps, in order.", shownStep(), 0, 0, false))
        .build();
  }

  /** run's answer: the trace when it ends, or the run id when detached. */
  static Map<String, Object> run() {
    return Schema.anyOf(
        "The run's trace when it ended, or (detach: true) its id while it goes on.",
        trace(),
        Schema.object()
            .required("run_id", runId())
            .required("status", Schema.enumOf("Always running.", "running"))
            .required("detached", Schema.bool("Always true."))
            .required("note", Schema.string("How to follow the run."))
            .build());
  }

  /** runs_show's answer: the trace, or one step's full record. */
  static Map<String, Object> runsShow() {
    return Schema.anyOf(
        "The run's trace, or (activity) one step's record with its whole output.",
        trace(),
        Schema.object()
            .required("run_id", runId())
            .required("status", runStatus())
            .required("step", step())
            .build());
  }

  /** runs_cancel's answer: the trace, with a note while the run has not ended. */
  static Map<String, Object> runsCancel() {
    return trace();
  }

  /** runs_list's answer. */
  static Map<String, Object> runsList() {
    Schema.ObjectBuilder row =
        Schema.object()
            .required("run_id", runId())
            .required("workflow", Schema.string("The workflow's name."))
            .required("version", Schema.string("The workflow's version."))
            .required("source", source())
            .required("status", runStatus())
            .required("engine", Schema.string("The engine it ran on: embedded or temporal."))
            .required("started_at", instant("When it started."))
            .required("ended_at", Schema.nullable(instant("When it ended.")))
            .required("duration_ms", Schema.nullable(Schema.integer("How long it ran, in ms.")))
            .required("steps_total", Schema.integer("How many steps the workflow has."))
            .required("steps_completed", Schema.integer("How many have an outcome."))
            .required("cost", cost("What the run cost so far."))
            .optional("error", runError())
            .optional("cancelled", cancellation());
    return Schema.object()
        .required("runs", Schema.array("The runs, newest first.", row.build(), 0, 0, false))
        .required("count", Schema.integer("How many runs were returned."))
        .build();
  }

  /** status's answer. */
  static Map<String, Object> status() {
    Schema.ObjectBuilder runs =
        Schema.object().required("total", Schema.integer("Runs on record in this home."));
    for (String status : RUN_STATUSES) {
      runs.required(status, Schema.integer("Runs now " + status + "."));
    }
    return Schema.object()
        .required("version", Schema.string("The Cortex version."))
        .required("home", Schema.string("The Cortex home directory (CORTEX_HOME)."))
        .required(
            "engine",
            Schema.object()
                .description("The engine runs go to.")
                .required("name", Schema.string("embedded or temporal."))
                .required("reachable", Schema.bool("Whether it can take runs now."))
                .optional("address", Schema.string("Temporal: the cluster's host:port."))
                .optional("namespace", Schema.string("Temporal: the namespace."))
                .optional("task_queue", Schema.string("Temporal: the task queue of the workers."))
                .optional("problem", Schema.string("Why it is out of reach, and what to do."))
                .build())
        .required("runs", runs.description("Run counts by status.").build())
        .required("library", Schema.integer("Workflows saved in the local library."))
        .required(
            "activity_kinds",
            Schema.array(
                "The step kinds this server runs.", Schema.enumOf(null, KINDS), 0, 0, true))
        .build();
  }

  /** A run's trace: what ran, where it stands, every step. */
  static Map<String, Object> trace() {
    return Trace.SCHEMA;
  }

  /** Built on first use, once: run, runs_show and runs_cancel share it. */
  private static final class Trace {
    static final Map<String, Object> SCHEMA = buildTrace();
  }

  private static Map<String, Object> buildTrace() {
    return Schema.object()
        .description("A run's trace.")
        .required("run_id", runId())
        .required("workflow", Schema.string("The workflow's name."))
        .required("version", Schema.string("The workflow's version."))
        .required("source", source())
        .required("parameters", parameterValues("The parameters the run got."))
        .required("status", runStatus())
        .required("engine", Schema.string("The engine it runs on: embedded or temporal."))
        .required("started_at", instant("When it started."))
        .required("ended_at", Schema.nullable(instant("When it ended.")))
        .required("duration_ms", Schema.nullable(Schema.integer("How long it ran, in ms.")))
        .required("cost", cost("What the run cost: the steps' costs summed."))
        .required("steps_total", Schema.integer("How many steps the workflow has."))
        .required("steps_completed", Schema.integer("How many have an outcome."))
        .required("resumes", Schema.integer("How often the run was resumed."))
        .required("steps", Schema.array("Every step, in manifest order.", step(), 0, 0, false))
        .required("error", Schema.nullable(runError()))
        .optional("cancelled", cancellation())
        .optional(
            "note", Schema.string("runs_cancel: the run has not ended yet, and how to follow it."))
        .build();
  }

  private static Map<String, Object> step() {
    return Schema.object()
        .description("One step's record.")
        .required("id", Schema.string("The step's id."))
        .required("kind", Schema.enumOf("The step's kind.", KINDS))
        .required(
            "status",
            Schema.enumOf(
                "pending: not run (yet); skipped: its if was false; cancelled: running when the"
                    + " run was stopped.",
                STEP_STATUSES))
        .required("attempts", Schema.integer("Attempts made, retries included."))
        .required("started_at", Schema.nullable(instant("When its first attempt started.")))
        .required("ended_at", Schema.nullable(instant("When it ended.")))
        .required("duration_ms", Schema.nullable(Schema.integer("How long it took, in ms.")))
        .required("cost", cost("What the step cost (llm steps: tokens and dollars)."))
        .optional("model", Schema.string("llm steps: the model that answered."))
        .required(
            "output",
            Schema.any("What the step returned, as its kind's reference says; null if none."))
        .required(
            "output_summary",
            Schema.nullable(Schema.string("One line on the output, e.g. 'exit 0, 12 lines'.")))
        .required("error", Schema.nullable(stepError()))
        .optional(
            "items",
            Schema.array(
                "for_each steps: each item's outcome, in order.",
                Schema.object()
                    .required("index", Schema.integer("The item's position, from 0."))
                    .required("status", Schema.enumOf("The item's outcome.", STEP_STATUSES))
                    .required("attempts", Schema.integer("Attempts made for it."))
                    .required("duration_ms", Schema.integer("How long it took, in ms."))
                    .required("summary", Schema.nullable(Schema.string("One line on its output.")))
                    .required("error", Schema.nullable(stepError()))
                    .build(),
                0,
                0,
                false))
        .optional(
            "output_elided",
            Schema.object()
                .description("Present when output was too large to return inline (over 2 KB).")
                .required("bytes", Schema.integer("The output's size as JSON, in bytes."))
                .required("note", Schema.string("How to fetch the whole output."))
                .required(
                    "runs_show",
                    Schema.object()
                        .description("The runs_show arguments that return it.")
                        .required("run_id", runId())
                        .required("activity", Schema.string("The step's id."))
                        .build())
                .build())
        .build();
  }

  /** A step as show describes it: its inputs as written, under the names the kinds take. */
  private static Map<String, Object> shownStep() {
    java.util.TreeSet<String> inputs = new java.util.TreeSet<>();
    for (StepKind kind : StepKind.values()) {
      if (Activities.inputSchema(kind).get("properties") instanceof Map<?, ?> names) {
        names.keySet().forEach(name -> inputs.add(String.valueOf(name)));
      }
    }
    Map<String, Object> with = new java.util.LinkedHashMap<>();
    with.put("type", "object");
    with.put(
        "description",
        "The inputs as written (a literal, or a string with ${{ }} templates), by the names the"
            + " kind takes (see the activity reference).");
    with.put("propertyNames", Map.of("enum", List.copyOf(inputs)));
    with.put("additionalProperties", Schema.any("An input as written."));
    return Schema.object()
        .required("id", Schema.string("The step's id."))
        .required("kind", Schema.enumOf("The step's kind.", KINDS))
        .required("with", java.util.Collections.unmodifiableMap(with))
        .optional("if", Schema.string("jq: the step runs when it is truthy."))
        .optional("for_each", Schema.string("jq giving the array the step runs over."))
        .optional("concurrency", Schema.integer("Parallel for_each items."))
        .optional("timeout_ms", Schema.integer("An attempt's time limit, in ms."))
        .optional(
            "retry",
            Schema.object()
                .required("attempts", Schema.integer("Attempts in all."))
                .required("backoff_ms", Schema.integer("The pause between them, in ms."))
                .build())
        .build();
  }

  private static Map<String, Object> identity() {
    return Schema.object()
        .description("The workflow's name, version and description.")
        .required("name", Schema.string("The workflow's name."))
        .required("version", Schema.string("Its version, e.g. 1.0.0."))
        .required("description", Schema.string("What it does (may be empty)."))
        .build();
  }

  private static Map<String, Object> source() {
    return Schema.object()
        .description("Where the manifest came from.")
        .required(
            "kind",
            Schema.enumOf(
                "library: saved locally; remote: a Git repository.", "path", "library", "remote"))
        .required("ref", Schema.string("The workflow argument as given."))
        .required("location", Schema.string("The file read, or git+URL//PATH@COMMIT."))
        .optional("repository", Schema.string("remote: its Git URL."))
        .optional("subpath", Schema.string("remote: the manifest's path."))
        .optional("commit", Schema.string("remote: the commit, 40 hex digits."))
        .build();
  }

  private static Map<String, Object> parameterValues(String description) {
    return Schema.map(
        description,
        ManifestSchema.IDENTIFIER,
        Schema.any("A value of the parameter's declared type."));
  }

  private static Map<String, Object> capabilities() {
    return Schema.array(
        "The capabilities the workflow declares: shell, network, filesystem.read,"
            + " filesystem.write, database, mcp:<server>.",
        Schema.string(null),
        0,
        0,
        true);
  }

  private static Map<String, Object> cost(String description) {
    return Schema.object()
        .description(description)
        .required("usd", Schema.number("US dollars of the priced model calls."))
        .required("input_tokens", Schema.integer("Tokens sent to models."))
        .required("output_tokens", Schema.integer("Tokens models generated."))
        .required(
            "unpriced", Schema.integer("Model calls of models without a price (dollars unknown)."))
        .build();
  }

  private static Map<String, Object> runError() {
    return Schema.object()
        .description("What ended a failed or cancelled run.")
        .required("step", Schema.nullable(Schema.string("The step, when one was running.")))
        .required(
            "kind", Schema.string("The failure's kind, e.g. exit_status, timeout, cancelled."))
        .required("message", Schema.string("What went wrong."))
        .build();
  }

  private static Map<String, Object> stepError() {
    return Schema.object()
        .description("Why the step (or item) failed.")
        .required(
            "kind",
            Schema.string("A stable kind, e.g. exit_status, http_status, timeout, cancelled."))
        .required("message", Schema.string("What went wrong."))
        .build();
  }

  private static Map<String, Object> cancellation() {
    return Schema.object()
        .description("Who stopped the run, when and why.")
        .required("by", Schema.string("Who asked, e.g. 'agent through runs_cancel'."))
        .required("at", instant("When they asked."))
        .required("reason", Schema.nullable(Schema.string("Why, when they said.")))
        .build();
  }

  private static Map<String, Object> runId() {
    return Schema.string("The run's id.");
  }

  private static Map<String, Object> runStatus() {
    return Schema.enumOf("interrupted: its process died (a person may resume it).", RUN_STATUSES);
  }

  private static Map<String, Object> instant(String description) {
    return Schema.instant(description.replaceFirst("\\.$", " (UTC)."));
  }

  private static String[] wires(Enum<?>[] constants) {
    return Arrays.stream(constants)
        .map(c -> c.name().toLowerCase(Locale.ROOT))
        .toArray(String[]::new);
  }
}
