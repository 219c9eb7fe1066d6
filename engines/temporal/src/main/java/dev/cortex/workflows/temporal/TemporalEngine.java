package dev.cortex.workflows.temporal;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunCancellation;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunIds;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunRequest;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.enums.v1.WorkflowIdReusePolicy;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The Temporal engine, on the side of the process that starts runs: records the run in this home,
 * starts the interpreter workflow (its id is the run id) on the task queue, and follows it so that
 * listeners hear of each step as it is recorded and {@link RunHandle#await} gets the final record.
 * The run itself belongs to the cluster: it goes on, and is recorded by the worker that interprets
 * it, whether or not this process is still there.
 */
public final class TemporalEngine implements Engine {
  public static final String NAME = "temporal";

  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(TemporalEngine.class);

  private final TemporalSettings settings;
  private final Map<String, String> env;
  private final RunStore store;
  private final TraceFiles traces;
  private final Clock clock;
  private Connection connection;

  /** The cancellations this process asked for, by run id: for runs whose end it follows. */
  private final Map<String, RunCancellation> asked = new java.util.concurrent.ConcurrentHashMap<>();

  public TemporalEngine(
      TemporalSettings settings,
      Map<String, String> env,
      RunStore store,
      TraceFiles traces,
      Clock clock) {
    this.settings = settings;
    this.env = Map.copyOf(env);
    this.store = store;
    this.traces = traces;
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Map<String, Object> describe() {
    Map<String, Object> described = new LinkedHashMap<>();
    described.put("name", NAME);
    Optional<String> problem = unavailable();
    described.put("reachable", problem.isEmpty());
    described.put("address", settings.address());
    described.put("namespace", settings.namespace());
    described.put("task_queue", settings.taskQueue());
    problem.ifPresent(p -> described.put("problem", p));
    return described;
  }

  @Override
  public Optional<String> unavailable() {
    Connection open;
    try {
      open = connection();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
    return open.problem()
        .map(
            p ->
                p
                    + "; start it or point [temporal] address in cortex.toml at it, or run on the"
                    + " embedded engine ([workflows] engine = \"embedded\")");
  }

  @Override
  public RunHandle start(RunRequest request, RunListener listener) {
    Connection open = connection();
    String startedAt = clock.instant().toString();
    RunRecord run;
    do {
      run = RunRecord.starting(RunIds.next(clock.instant()), request, NAME, startedAt);
    } while (!store.create(run, request.manifestText(), RunStore.Owner.current()));
    traces.write(run);
    return launch(open, run, request.manifestText(), 0, listener);
  }

  @Override
  public RunHandle resume(String runId, RunListener listener) {
    Connection open = connection();
    RunStore.Stored stored =
        store.load(runId).orElseThrow(() -> new IllegalArgumentException("no run " + runId));
    if (!store.claim(runId, RunStore.Owner.current())) {
      throw new IllegalStateException(
          "run "
              + runId
              + " is "
              + stored.record().status().wire()
              + "; only interrupted or failed runs can be resumed");
    }
    RunRecord run = store.load(runId).orElseThrow().record();
    RunRecord onTemporal = run.resumedOn(NAME);
    int first = 0;
    while (first < run.steps().size() && run.steps().get(first).status().done()) {
      first++;
    }
    return launch(open, onTemporal, stored.manifest(), first, listener);
  }

  private RunHandle launch(
      Connection open, RunRecord run, String manifest, int first, RunListener listener) {
    WorkflowStub stub =
        open.client.newUntypedWorkflowStub(
            InterpreterWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setWorkflowId(run.runId())
                .setTaskQueue(settings.taskQueue())
                .setWorkflowIdReusePolicy(
                    WorkflowIdReusePolicy.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE)
                .build());
    WorkflowExecution execution;
    try {
      execution =
          stub.start(
              Payloads.write(
                  new Payloads.Start(
                      run, manifest, first, settings.heartbeatTimeout().toMillis())));
    } catch (WorkflowExecutionAlreadyStarted e) {
      throw new IllegalStateException("run " + run.runId() + " is already running on Temporal");
    } catch (RuntimeException e) {
      log.warn("run {} did not start on Temporal: {}", run.runId(), e.toString());
      RunRecord failed =
          run.ended(
              clock.instant().toString(),
              0,
              new RunRecord.RunError(
                  null, "engine", "the run could not be started on Temporal; see the log"));
      store.finish(failed);
      traces.write(failed);
      throw new ToolException(
          ErrorCodes.UNAVAILABLE,
          "run "
              + run.runId()
              + " could not be started on the Temporal cluster at "
              + settings.where());
    }
    CompletableFuture<RunRecord> done = new CompletableFuture<>();
    RunFollower follower =
        new RunFollower(
            open,
            execution,
            run,
            first,
            listener,
            store,
            traces,
            clock,
            done,
            () -> asked.get(run.runId()));
    Thread thread = new Thread(follower, "cortex-follow-" + run.runId());
    thread.setDaemon(true);
    thread.start();
    String runId = run.runId();
    return RunHandle.of(runId, done, cancellation -> cancel(runId, cancellation));
  }

  /**
   * Cancels the run's workflow on the cluster (Temporal workflow cancellation, the cancellation as
   * its reason): the interpreter stops its running attempt (whose worker ends its processes),
   * starts no later step and records the run as cancelled.
   */
  @Override
  public void cancel(String runId, RunCancellation cancellation) {
    asked.putIfAbsent(runId, cancellation);
    try {
      connection().client.newUntypedWorkflowStub(runId).cancel(Payloads.write(cancellation));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "run " + runId + " could not be cancelled on Temporal: " + e.getMessage());
    }
  }

  /**
   * Runs on Temporal go on without this process, and their workers record them: nothing here has to
   * be waited for.
   */
  @Override
  public boolean busy() {
    return false;
  }

  @Override
  public void awaitIdle() {}

  private synchronized Connection connection() {
    if (connection == null) {
      connection = Connection.open(settings, env);
    }
    return connection;
  }
}
