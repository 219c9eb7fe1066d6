package dev.cortex.workflows;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.Activity;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.consent.Confirmer;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ParameterException;
import dev.cortex.workflows.manifest.ParameterSpec;
import dev.cortex.workflows.manifest.Parameters;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.remote.TrustStore;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunRequest;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.tools.Surface;
import dev.cortex.workflows.tools.TraceView;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The workflow verbs, one code path for the MCP tools and the CLI: check, show, run, runs list,
 * runs show, runs resume, status. Errors are {@link ToolException}s with stable codes.
 */
public final class Workflows {
  private final String version;
  private final CortexHome home;
  private final Sources sources;
  private final RunStore store;
  private final Engine engine;
  private final Activities activities;
  private final ActivityEnvironment environment;
  private final RunConsent consent;

  public Workflows(
      String version,
      CortexHome home,
      Sources sources,
      RunStore store,
      Engine engine,
      Activities activities,
      ActivityEnvironment environment) {
    this.version = version;
    this.home = home;
    this.sources = sources;
    this.store = store;
    this.engine = engine;
    this.activities = activities;
    this.environment = environment;
    this.consent = new RunConsent(new TrustStore(home, java.time.Clock.systemUTC()));
  }

  /**
   * The verbs on the embedded engine over the shared database, with every shipped activity kind;
   * relative workflow paths are read against {@code workingDirectory}.
   */
  public static Workflows embedded(
      String version,
      CortexHome home,
      Map<String, String> variables,
      java.util.function.Supplier<dev.cortex.storage.Database> database,
      java.nio.file.Path workingDirectory) {
    return create(
        version,
        home,
        variables,
        database,
        workingDirectory,
        dev.cortex.workflows.run.EmbeddedEngine::new);
  }

  /** Builds the engine of {@link #create} from the parts every engine shares. */
  public interface EngineFactory {
    Engine create(
        RunStore store, TraceFiles traces, Activities activities, ActivityEnvironment environment);
  }

  /** As {@link #embedded}, on the engine that {@code engines} builds. */
  public static Workflows create(
      String version,
      CortexHome home,
      Map<String, String> variables,
      java.util.function.Supplier<dev.cortex.storage.Database> database,
      java.nio.file.Path workingDirectory,
      EngineFactory engines) {
    Activities activities = Activities.standard();
    ActivityEnvironment environment =
        new ActivityEnvironment(home, variables, java.time.Clock.systemUTC());
    RunStore store = new RunStore(database);
    Engine engine = engines.create(store, new TraceFiles(home), activities, environment);
    return new Workflows(
        version, home, new Sources(home, workingDirectory), store, engine, activities, environment);
  }

  /** How parameters arrive: JSON values (MCP) or command-line text (CLI). */
  public record Params(Map<String, ?> values, Parameters.Source source) {
    public static Params json(JsonNode node) {
      Map<String, Object> values = new LinkedHashMap<>();
      if (node != null && node.isObject()) {
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
          values.put(entry.getKey(), Json.mapper().convertValue(entry.getValue(), Object.class));
        }
      }
      return new Params(values, Parameters.Source.JSON);
    }
  }

  /** A workflow ready to run: loaded, parameters resolved, preflight passed. */
  public record Prepared(Sources.Loaded loaded, Map<String, Object> parameters) {}

  /** check: everything a run would verify before its first step, with no side effects. */
  public Prepared prepare(String ref, Params params) {
    Sources.Loaded loaded = sources.load(ref);
    Map<String, Object> resolved;
    try {
      resolved = Parameters.resolve(loaded.manifest(), params.values(), params.source());
    } catch (ParameterException e) {
      throw new ToolException(
          WorkflowErrors.INVALID_PARAMETERS,
          "parameters of workflow '" + loaded.manifest().name() + "':\n" + e.getMessage());
    }
    List<String> problems = new ArrayList<>();
    for (Step step : loaded.manifest().steps()) {
      problems.addAll(
          activities.forKind(step.kind()).preflight(step, loaded.manifest(), environment));
    }
    if (!problems.isEmpty()) {
      throw new ToolException(
          WorkflowErrors.PREFLIGHT_FAILED,
          "workflow '"
              + loaded.manifest().name()
              + "' cannot run here:\n"
              + String.join("\n", problems));
    }
    engine
        .unavailable()
        .ifPresent(
            problem -> {
              throw new ToolException(dev.cortex.base.ErrorCodes.UNAVAILABLE, problem);
            });
    return new Prepared(loaded, resolved);
  }

  /** The check report of a prepared workflow. */
  public Map<String, Object> checkReport(Prepared prepared) {
    Manifest manifest = prepared.loaded().manifest();
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("ok", true);
    report.put("workflow", identity(manifest));
    report.put("source", prepared.loaded().ref());
    report.put("parameters", prepared.parameters());
    report.put("capabilities", manifest.capabilities());
    List<Map<String, Object>> steps = new ArrayList<>();
    for (Step step : manifest.steps()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("id", step.id());
      entry.put("kind", step.kind().wireName());
      step.kind()
          .requiredCapability(String.valueOf(step.with().get("server")))
          .ifPresent(c -> entry.put("capability", c));
      steps.add(entry);
    }
    report.put("steps", steps);
    report.put("engine", engine.name());
    report.put("consent_required", consent.trustRequired(prepared.loaded()));
    return report;
  }

  /** show: what a workflow is, takes and does. */
  public Map<String, Object> show(String ref) {
    Sources.Loaded loaded = sources.load(ref);
    Manifest manifest = loaded.manifest();
    Map<String, Object> shown = new LinkedHashMap<>();
    shown.put("workflow", identity(manifest));
    shown.put("source", loaded.ref());
    Map<String, Object> parameters = new LinkedHashMap<>();
    manifest.parameters().forEach((name, spec) -> parameters.put(name, describe(spec)));
    shown.put("parameters", parameters);
    shown.put("capabilities", manifest.capabilities());
    Map<String, Object> servers = new LinkedHashMap<>();
    manifest
        .servers()
        .forEach(
            (name, server) ->
                servers.put(
                    name,
                    server.isStdio()
                        ? Map.of("command", server.command())
                        : Map.of("url", server.url())));
    shown.put("servers", servers);
    List<Map<String, Object>> steps = new ArrayList<>();
    for (Step step : manifest.steps()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("id", step.id());
      entry.put("kind", step.kind().wireName());
      entry.put("with", step.with());
      if (step.condition() != null) {
        entry.put("if", step.condition());
      }
      if (step.forEach() != null) {
        entry.put("for_each", step.forEach());
        entry.put("concurrency", step.concurrency());
      }
      if (step.timeout() != null) {
        entry.put("timeout_ms", step.timeout().toMillis());
      }
      if (step.retry().attempts() > 1) {
        entry.put(
            "retry",
            Map.of(
                "attempts", step.retry().attempts(),
                "backoff_ms", step.retry().backoff().toMillis()));
      }
      steps.add(entry);
    }
    shown.put("steps", steps);
    return shown;
  }

  /**
   * run's consent, between {@link #prepare} and {@link #start}: trust in an untrusted remote
   * workflow, then this run, each asked through {@code confirmer}.
   *
   * @throws ToolException CONSENT_DECLINED, CONSENT_TIMEOUT or CONSENT_UNAVAILABLE: nothing ran
   */
  public void confirm(Prepared prepared, Confirmer confirmer) {
    confirm(prepared, confirmer, Surface.MCP);
  }

  /**
   * As {@link #confirm(Prepared, Confirmer)}, the questions worded for {@code surface}: an agent's
   * request (MCP), or the command the person typed (CLI).
   */
  public void confirm(Prepared prepared, Confirmer confirmer, Surface surface) {
    consent.confirm(prepared, confirmer, surface);
  }

  /** run: prepares, then starts the run; the handle's await gives the final record. */
  public RunHandle start(Prepared prepared, RunListener listener) {
    sweep();
    Sources.Loaded loaded = prepared.loaded();
    return engine.start(
        new RunRequest(loaded.manifest(), loaded.text(), loaded.ref(), prepared.parameters()),
        listener);
  }

  /** runs resume: continues an interrupted or failed run from its first unfinished step. */
  public RunHandle resume(String runId, RunListener listener) {
    sweep();
    RunRecord run = stored(runId, Surface.CLI);
    if (run.status() == RunStatus.RUNNING
        || run.status() == RunStatus.SUCCEEDED
        || run.status() == RunStatus.CANCELLED) {
      throw new ToolException(
          WorkflowErrors.RUN_STATE,
          "run "
              + runId
              + " is "
              + run.status().wire()
              + "; only interrupted or failed runs can be resumed");
    }
    try {
      return engine.resume(runId, listener);
    } catch (IllegalStateException e) {
      throw new ToolException(WorkflowErrors.RUN_STATE, e.getMessage());
    }
  }

  /** How long {@link #cancel} waits for a cancelled run to end before it answers. */
  static final java.time.Duration CANCEL_WAIT = java.time.Duration.ofSeconds(30);

  /**
   * runs_cancel and {@code cortex runs cancel}: stops a running or interrupted run (its running
   * step's processes ended, no later step started) and records who cancelled it, when and why;
   * waits up to {@link #CANCEL_WAIT} for it to end and returns its trace.
   */
  public JsonNode cancel(String runId, String by, String reason) throws InterruptedException {
    return cancel(runId, by, reason, Surface.MCP);
  }

  /**
   * As {@link #cancel(String, String, String)}, with the notes of the trace for {@code surface}.
   */
  public JsonNode cancel(String runId, String by, String reason, Surface surface)
      throws InterruptedException {
    sweep();
    RunRecord run = stored(runId, surface);
    if (run.status() == RunStatus.CANCELLED) {
      return TraceView.of(run, false, surface);
    }
    if (run.status() == RunStatus.SUCCEEDED || run.status() == RunStatus.FAILED) {
      throw new ToolException(
          WorkflowErrors.RUN_STATE,
          "run " + runId + " already ended " + run.status().wire() + "; there is nothing to stop");
    }
    if (!run.engine().equals(engine.name())) {
      throw new ToolException(
          dev.cortex.base.ErrorCodes.UNAVAILABLE,
          "run "
              + runId
              + " runs on the "
              + run.engine()
              + " engine; cancel it where Cortex is set up for that engine");
    }
    dev.cortex.workflows.run.RunCancellation cancellation =
        new dev.cortex.workflows.run.RunCancellation(
            by, environment.clock().instant().toString(), reason);
    try {
      engine.cancel(runId, cancellation);
    } catch (IllegalStateException e) {
      throw new ToolException(WorkflowErrors.RUN_STATE, e.getMessage());
    }
    long deadline = System.nanoTime() + CANCEL_WAIT.toNanos();
    RunRecord now = stored(runId, surface);
    while (!now.status().ended() && System.nanoTime() < deadline) {
      Thread.sleep(100);
      store.sweep();
      now = stored(runId, surface);
    }
    JsonNode trace = TraceView.of(now, false, surface);
    if (!now.status().ended() && trace instanceof tools.jackson.databind.node.ObjectNode node) {
      node.put(
          "note",
          "Cancellation was asked for; the process running the run has not ended it yet. Follow"
              + " it with "
              + surface.follow(runId)
              + ".");
    }
    return trace;
  }

  /** runs_list: runs newest first, filtered. */
  public Map<String, Object> list(String workflow, String status, String since, int limit) {
    sweep();
    RunStatus wanted = null;
    if (status != null) {
      wanted =
          RunStatus.fromWire(status)
              .orElseThrow(
                  () ->
                      ToolException.invalidArgument(
                          "status: '"
                              + status
                              + "' is not one of running, succeeded, failed,"
                              + " interrupted, cancelled"));
    }
    Instant from = null;
    if (since != null) {
      try {
        from = Instant.parse(since);
      } catch (DateTimeParseException e) {
        throw ToolException.invalidArgument(
            "since: '" + since + "' is not an ISO-8601 instant such as 2026-11-30T09:00:00Z");
      }
    }
    List<Map<String, Object>> runs = new ArrayList<>();
    for (RunRecord run : store.list(new RunStore.Filter(workflow, wanted, from, limit))) {
      runs.add(summary(run));
    }
    Map<String, Object> listed = new LinkedHashMap<>();
    listed.put("runs", runs);
    listed.put("count", runs.size());
    return listed;
  }

  /** runs_show: a run's trace (large outputs elided unless full), or one step in full. */
  public JsonNode showRun(String runId, String activity, boolean full) {
    return showRun(runId, activity, full, Surface.MCP);
  }

  /**
   * As {@link #showRun(String, String, boolean)}, with the notes of the trace for {@code surface}.
   */
  public JsonNode showRun(String runId, String activity, boolean full, Surface surface) {
    sweep();
    RunRecord run = stored(runId, surface);
    if (activity != null) {
      StepRecord step =
          run.step(activity)
              .orElseThrow(
                  () ->
                      ToolException.invalidReference(
                          "run "
                              + runId
                              + " has no step '"
                              + activity
                              + "' (steps: "
                              + String.join(", ", run.steps().stream().map(StepRecord::id).toList())
                              + ")"));
      Map<String, Object> shown = new LinkedHashMap<>();
      shown.put("run_id", run.runId());
      shown.put("status", run.status());
      shown.put("step", step);
      return Json.tree(shown);
    }
    return TraceView.of(run, full, surface);
  }

  /** status: version, home, engine, counts. */
  public Map<String, Object> status() {
    sweep();
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("version", version);
    status.put("home", home.root().toString());
    status.put("engine", engine.describe());
    Map<String, Integer> counts = store.counts();
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    Map<String, Object> runs = new LinkedHashMap<>();
    runs.put("total", total);
    runs.putAll(counts);
    status.put("runs", runs);
    status.put("library", sources.names().size());
    List<String> kinds = new ArrayList<>();
    for (Activity activity : activities.all()) {
      kinds.add(activity.kind().wireName());
    }
    status.put("activity_kinds", kinds);
    return status;
  }

  /** A run's summary row for runs_list. */
  public static Map<String, Object> summary(RunRecord run) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("run_id", run.runId());
    row.put("workflow", run.workflow());
    row.put("version", run.version());
    row.put("source", run.source());
    row.put("status", run.status());
    row.put("engine", run.engine());
    row.put("started_at", run.startedAt());
    row.put("ended_at", run.endedAt());
    row.put("duration_ms", run.durationMs());
    row.put("steps_total", run.stepsTotal());
    row.put("steps_completed", run.stepsCompleted());
    row.put("cost", run.cost());
    if (run.error() != null) {
      row.put("error", run.error());
    }
    if (run.cancelled() != null) {
      row.put("cancelled", run.cancelled());
    }
    return row;
  }

  /** The engine, for whoever must wait for detached runs before the process ends. */
  public Engine engine() {
    return engine;
  }

  /**
   * Marks interrupted the runs whose process died since the last look. Done before every answer
   * about runs, so that a long-lived server never reports a dead run as running.
   */
  private void sweep() {
    store.sweep();
  }

  private RunRecord stored(String runId, Surface surface) {
    if (!TraceFiles.isRunId(runId)) {
      throw ToolException.invalidArgument(
          "run_id: '" + runId + "' is not a run id (they look like 20261130T094512Z-k3m9x2qa)");
    }
    return store
        .load(runId)
        .orElseThrow(
            () ->
                ToolException.invalidReference(
                    "no run " + runId + " (see " + surface.listRuns() + ")"))
        .record();
  }

  private static Map<String, Object> identity(Manifest manifest) {
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("name", manifest.name());
    identity.put("version", manifest.version());
    identity.put("description", manifest.description());
    return identity;
  }

  private static Map<String, Object> describe(ParameterSpec spec) {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("type", spec.type().wireName());
    described.put("required", spec.required());
    if (spec.defaultValue() != null) {
      described.put("default", spec.defaultValue());
    }
    if (spec.min() != null) {
      described.put("min", spec.min());
    }
    if (spec.max() != null) {
      described.put("max", spec.max());
    }
    if (!spec.values().isEmpty()) {
      described.put("values", spec.values());
    }
    if (!spec.description().isEmpty()) {
      described.put("description", spec.description());
    }
    return described;
  }
}
