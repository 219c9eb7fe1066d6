package dev.cortex.workflows.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.storage.Database;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.run.EmbeddedEngine;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunRequest;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.run.WorkflowRef;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Temporal engine and a worker against the Temporal test server on loopback, over a real
 * database and real trace files, compared step for step with the embedded engine.
 */
class TemporalEngineTest {
  private static final AtomicInteger QUEUES = new AtomicInteger();
  private static LoopbackTemporal temporal;

  @TempDir Path dir;

  private Database database;
  private RunStore store;
  private TraceFiles traces;
  private TemporalWorker worker;
  private TemporalEngine engine;
  private EmbeddedEngine embedded;

  @BeforeAll
  static void startTemporal() {
    temporal = LoopbackTemporal.start();
  }

  @AfterAll
  static void stopTemporal() {
    temporal.close();
  }

  @BeforeEach
  void open() {
    CortexHome home = new CortexHome(dir.resolve("home"), dir.resolve("home").resolve("data"));
    database = new Database(home, List.of(RunStore.area()));
    store = new RunStore(() -> database);
    traces = new TraceFiles(home);
    ActivityEnvironment environment =
        new ActivityEnvironment(home, System.getenv(), Clock.systemUTC());
    TemporalSettings settings = settings(temporal.address(), "test-" + QUEUES.incrementAndGet());
    worker =
        TemporalWorker.start(
            settings,
            Map.of(),
            store,
            traces,
            Activities.standard(),
            environment,
            new TemporalWorker.Options(8, 100));
    engine = new TemporalEngine(settings, Map.of(), store, traces, Clock.systemUTC());
    embedded = new EmbeddedEngine(store, traces, Activities.standard(), environment);
  }

  @AfterEach
  void close() {
    worker.close();
    database.close();
  }

  /** Settings for {@code address} and {@code queue}, with a short heartbeat timeout. */
  static TemporalSettings settings(String address, String queue) {
    return new TemporalSettings(
        address, "default", queue, false, null, null, null, null, Duration.ofSeconds(2));
  }

  private static RunRequest request(String yaml) throws Exception {
    Manifest manifest = ManifestLoader.parse("test.yaml", yaml);
    return new RunRequest(
        manifest, yaml, new WorkflowRef("path", "test.yaml", "test.yaml"), Map.of());
  }

  private static RunRecord run(Engine engine, String yaml, RunListener listener) throws Exception {
    return engine.start(request(yaml), listener).await();
  }

  /** A trace without what differs from run to run: ids, engine, times and durations. */
  static JsonNode comparable(RunRecord run) {
    ObjectNode trace = (ObjectNode) Json.tree(run);
    trace.remove(List.of("run_id", "engine", "started_at", "ended_at", "duration_ms"));
    for (JsonNode step : trace.path("steps")) {
      ((ObjectNode) step).remove(List.of("started_at", "ended_at", "duration_ms"));
      for (JsonNode item : step.path("items")) {
        ((ObjectNode) item).remove("duration_ms");
      }
    }
    return trace;
  }

  static Stream<Arguments> workflows() {
    return Stream.of(
        Arguments.of(
            "chain",
            """
            name: chain
            version: '1'
            steps:
              - id: numbers
                kind: transform
                with: {expression: '[range(5)]'}
              - id: total
                kind: transform
                with: {expression: '.steps.numbers | add'}
              - id: label
                kind: transform
                with:
                  expression: .
                  input: "total=${{ .steps.total }} of ${{ .steps.numbers }}"
              - id: maybe
                kind: transform
                if: '.steps.total > 100'
                with: {expression: '1'}
            """),
        Arguments.of(
            "fan-out",
            """
            name: fan
            version: '1'
            capabilities: [shell]
            steps:
              - id: each
                kind: shell
                for_each: '[3, 1, 2, 0]'
                concurrency: 3
                with:
                  script: "sleep 0.${{ .item }}; echo ${{ .index }}-${{ .item }}"
              - id: lines
                kind: transform
                with: {expression: '[.steps.each[].stdout]'}
            """),
        Arguments.of(
            "failures",
            """
            name: broken
            version: '1'
            capabilities: [shell, network]
            steps:
              - id: bad_input
                kind: http
                retry: {attempts: 3}
                if: 'false'
                with: {url: '${{ 42 }}'}
              - id: slow
                kind: shell
                timeout: 300ms
                retry: {attempts: 2, backoff: 1ms}
                with: {argv: [sleep, '30']}
              - id: never
                kind: transform
                with: {expression: '2'}
            """),
        Arguments.of(
            "retries",
            """
            name: retries
            version: '1'
            capabilities: [shell, network]
            steps:
              - id: bad_input
                kind: http
                retry: {attempts: 3}
                with: {url: '${{ 42 }}'}
              - id: broken
                kind: shell
                retry: {attempts: 2, backoff: 10ms}
                with: {script: 'echo oops >&2; exit 3'}
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("workflows")
  void traces_areTheSameOnBothEngines(String name, String yaml) throws Exception {
    RunRecord onTemporal = run(engine, yaml, RunListener.NONE);
    RunRecord onEmbedded = run(embedded, yaml, RunListener.NONE);

    assertThat(onTemporal.engine()).isEqualTo("temporal");
    assertThat(comparable(onTemporal)).isEqualTo(comparable(onEmbedded));
    RunRecord stored = store.load(onTemporal.runId()).orElseThrow().record();
    assertThat(comparable(stored)).isEqualTo(comparable(onTemporal));
    JsonNode onDisk = Json.mapper().readTree(traces.file(onTemporal.runId()).toFile());
    assertThat(onDisk).isEqualTo(Json.mapper().readTree(Json.write(onTemporal)));
  }

  @Test
  void listeners_hearThePlanThenEachDurableStepInOrderThenTheEnd() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    RunRecord run =
        run(
            engine,
            """
            name: told
            version: '1'
            capabilities: [shell]
            steps:
              - id: one
                kind: shell
                with: {argv: [echo, one]}
              - id: two
                kind: transform
                with: {expression: '.steps.one.stdout'}
              - id: three
                kind: shell
                with: {argv: [sleep, '0.2']}
            """,
            new RunListener() {
              @Override
              public void planned(RunRecord r) {
                heard.add("plan " + r.stepsTotal());
              }

              @Override
              public void stepEnded(RunRecord r, int position) {
                StepRecord stored =
                    store.load(r.runId()).orElseThrow().record().steps().get(position);
                heard.add(
                    position + " " + r.steps().get(position).id() + " " + stored.status().wire());
              }

              @Override
              public void ended(RunRecord r) {
                heard.add("end " + r.status().wire());
              }
            });

    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(heard)
        .containsExactly(
            "plan 3", "0 one succeeded", "1 two succeeded", "2 three succeeded", "end succeeded");
  }

  @Test
  void aFailedRun_resumesOnTemporalFromItsFirstUnfinishedStep() throws Exception {
    Path flag = dir.resolve("fixed");
    String yaml =
        """
        name: resumable
        version: '1'
        capabilities: [shell]
        steps:
          - id: first
            kind: transform
            with: {expression: '"kept"'}
          - id: second
            kind: shell
            with: {script: 'test -e %s && echo fixed'}
        """
            .formatted(flag);
    RunRecord failed = run(engine, yaml, RunListener.NONE);
    assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
    java.nio.file.Files.writeString(flag, "");

    RunRecord resumed = engine.resume(failed.runId(), RunListener.NONE).await();

    assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(resumed.resumes()).isEqualTo(1);
    assertThat(resumed.steps().get(0)).isEqualTo(failed.steps().get(0));
    assertThat(resumed.steps().get(1).output().path("stdout").asString()).isEqualTo("fixed\n");
    assertThat(store.load(failed.runId()).orElseThrow().record().status())
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void describe_reportsTheClusterReachable_andAClosedPortUnavailableQuickly() throws Exception {
    assertThat(engine.describe())
        .containsEntry("name", "temporal")
        .containsEntry("reachable", true)
        .containsEntry("address", temporal.address());
    assertThat(engine.unavailable()).isEmpty();

    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    TemporalEngine nowhere =
        new TemporalEngine(
            settings("127.0.0.1:" + closed, "nowhere"), Map.of(), store, traces, Clock.systemUTC());
    long start = System.nanoTime();
    assertThat(nowhere.unavailable())
        .hasValueSatisfying(
            problem -> assertThat(problem).contains("127.0.0.1:" + closed, "unreachable"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(nowhere.describe()).containsEntry("reachable", false);
  }

  @Test
  void cancel_duringAShellStep_endsItsProcesses_startsNoLaterStep_andRecordsWhoCancelled()
      throws Exception {
    Path marks = java.nio.file.Files.createDirectories(dir.resolve("marks"));
    String yaml =
        """
        name: stoppable
        version: '1'
        capabilities: [shell]
        steps:
          - id: work
            kind: shell
            with:
              script: "sleep 300 & echo $! > %1$s/child.tmp; mv %1$s/child.tmp %1$s/child; sleep 300"
          - id: after
            kind: shell
            with: {argv: [touch, "%1$s/after"]}
        """
            .formatted(marks);
    dev.cortex.workflows.run.RunHandle handle = engine.start(request(yaml), RunListener.NONE);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!java.nio.file.Files.exists(marks.resolve("child"))) {
      assertThat(System.nanoTime()).as("the step started").isLessThan(deadline);
      Thread.sleep(20);
    }
    long child = Long.parseLong(java.nio.file.Files.readString(marks.resolve("child")).strip());

    handle.cancel(
        new dev.cortex.workflows.run.RunCancellation("a test", "2026-12-01T12:00:00Z", "enough"));
    RunRecord run = handle.await();

    assertThat(run.status()).as("%s", run.error()).isEqualTo(RunStatus.CANCELLED);
    assertThat(run.cancelled().by()).isEqualTo("a test");
    assertThat(run.cancelled().reason()).isEqualTo("enough");
    assertThat(run.step("work").orElseThrow().status())
        .isEqualTo(dev.cortex.workflows.run.StepStatus.CANCELLED);
    assertThat(run.step("after").orElseThrow().status())
        .isEqualTo(dev.cortex.workflows.run.StepStatus.PENDING);
    assertThat(running(child)).as("the step's background child").isFalse();
    assertThat(marks.resolve("after")).doesNotExist();
    RunRecord stored = store.load(run.runId()).orElseThrow().record();
    assertThat(stored.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(stored.cancelled()).isEqualTo(run.cancelled());
    assertThat(Json.mapper().readTree(traces.file(run.runId())).path("status").asString())
        .isEqualTo("cancelled");
  }

  @Test
  void aRunTerminatedOnTemporal_endsFailed_sayingWhy() throws Exception {
    Path marks = java.nio.file.Files.createDirectories(dir.resolve("marks"));
    String yaml =
        """
        name: terminated
        version: '1'
        capabilities: [shell]
        steps:
          - id: work
            kind: shell
            with:
              script: "touch %s/started; sleep 300"
        """
            .formatted(marks);
    dev.cortex.workflows.run.RunHandle handle = engine.start(request(yaml), RunListener.NONE);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!java.nio.file.Files.exists(marks.resolve("started"))) {
      assertThat(System.nanoTime()).as("the step started").isLessThan(deadline);
      Thread.sleep(20);
    }
    try (Connection connection = Connection.open(settings(temporal.address(), "any"), Map.of())) {
      connection
          .client
          .newUntypedWorkflowStub(handle.runId())
          .terminate("an operator cleared the queue");
    }

    RunRecord run = handle.await();

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.error().message())
        .startsWith("the run ended on Temporal without its record: its workflow was terminated")
        .contains("an operator cleared the queue");
  }

  /** Whether {@code pid} runs (a zombie has ended). */
  private static boolean running(long pid) {
    try {
      String stat = java.nio.file.Files.readString(Path.of("/proc/" + pid + "/stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
