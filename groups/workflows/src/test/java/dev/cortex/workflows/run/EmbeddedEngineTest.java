package dev.cortex.workflows.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.storage.Database;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The embedded engine over a real database, real trace files and the shipped activities. */
class EmbeddedEngineTest {
  @TempDir Path dir;

  private CortexHome home;
  private Database database;
  private RunStore store;
  private EmbeddedEngine engine;

  @BeforeEach
  void open() {
    home = new CortexHome(dir.resolve("home"), dir.resolve("home").resolve("data"));
    database = new Database(home, List.of(RunStore.area()));
    store = new RunStore(() -> database);
    engine =
        new EmbeddedEngine(
            store,
            new TraceFiles(home),
            Activities.standard(),
            new ActivityEnvironment(home, System.getenv(), Clock.systemUTC()));
  }

  @AfterEach
  void close() {
    database.close();
  }

  private RunRequest request(String yaml, Map<String, Object> params) throws Exception {
    Manifest manifest = ManifestLoader.parse("test.yaml", yaml);
    return new RunRequest(
        manifest, yaml, new WorkflowRef("path", "test.yaml", "test.yaml"), params);
  }

  private RunRecord run(String yaml, Map<String, Object> params, RunListener listener)
      throws Exception {
    return engine.start(request(yaml, params), listener).await();
  }

  private RunRecord run(String yaml) throws Exception {
    return run(yaml, Map.of(), RunListener.NONE);
  }

  @Test
  void chainsStepOutputsPersistsEachStepAndWritesTheTrace() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    RunRecord run =
        run(
            """
            name: chain
            version: 1.0.0
            parameters:
              n: {type: integer, default: 4}
            steps:
              - id: numbers
                kind: transform
                with: {expression: '[range(.params.n)]'}
              - id: total
                kind: transform
                with: {expression: '.steps.numbers | add'}
              - id: label
                kind: transform
                with:
                  expression: .
                  input: "total=${{ .steps.total }} of ${{ .steps.numbers }}"
            """,
            Map.of("n", 5),
            new RunListener() {
              @Override
              public void planned(RunRecord r) {
                heard.add("plan " + r.stepsTotal());
              }

              @Override
              public void stepEnded(RunRecord r, int position) {
                // The step is durable before listeners hear of it.
                StepRecord stored =
                    store.load(r.runId()).orElseThrow().record().steps().get(position);
                heard.add(stored.id() + " " + stored.status().wire());
              }

              @Override
              public void ended(RunRecord r) {
                heard.add("end " + r.status().wire());
              }
            });

    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.step("total").orElseThrow().output().asInt()).isEqualTo(10);
    assertThat(run.step("label").orElseThrow().output().asString())
        .isEqualTo("total=10 of [0,1,2,3,4]");
    assertThat(run.stepsCompleted()).isEqualTo(3);
    assertThat(heard)
        .containsExactly(
            "plan 3", "numbers succeeded", "total succeeded", "label succeeded", "end succeeded");

    JsonNode onDisk = Json.mapper().readTree(new TraceFiles(home).file(run.runId()).toFile());
    assertThat(onDisk.path("status").asString()).isEqualTo("succeeded");
    assertThat(onDisk.path("steps").get(1).path("output").asInt()).isEqualTo(10);
    RunRecord stored = store.load(run.runId()).orElseThrow().record();
    assertThat(stored.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(stored.steps()).hasSize(3);
    assertThat(stored.parameters().path("n").asInt()).isEqualTo(5);
  }

  @Test
  void aFalseIfSkipsTheStepAndLaterStepsSeeNull() throws Exception {
    RunRecord run =
        run(
            """
            name: skip
            version: '1'
            steps:
              - id: maybe
                kind: transform
                if: 'false'
                with: {expression: '1'}
              - id: after
                kind: transform
                with: {expression: '.steps.maybe == null'}
            """);
    assertThat(run.step("maybe").orElseThrow().status()).isEqualTo(StepStatus.SKIPPED);
    assertThat(run.step("after").orElseThrow().output().asBoolean()).isTrue();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void forEachKeepsItemOrderUnderConcurrency() throws Exception {
    RunRecord run =
        run(
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
            """);
    StepRecord each = run.step("each").orElseThrow();
    assertThat(each.status()).isEqualTo(StepStatus.SUCCEEDED);
    List<String> lines = new ArrayList<>();
    each.output().forEach(o -> lines.add(o.path("stdout").asString().strip()));
    assertThat(lines).containsExactly("0-3", "1-1", "2-2", "3-0");
    assertThat(each.items()).extracting(ItemRecord::index).containsExactly(0, 1, 2, 3);
    assertThat(each.outputSummary()).isEqualTo("4 items");
    assertThat(each.attempts()).isEqualTo(4);
  }

  @Test
  void retriesAFailingAttemptUntilItSucceeds() throws Exception {
    Path counter = dir.resolve("count");
    RunRecord run =
        run(
            """
            name: flaky
            version: '1'
            capabilities: [shell]
            parameters:
              counter: {type: string, required: true}
            steps:
              - id: flaky
                kind: shell
                retry: {attempts: 3, backoff: 10ms}
                with:
                  script: 'echo x >> ${{ .params.counter }}; test $(wc -l < ${{ .params.counter }}) -ge 3'
            """,
            Map.of("counter", counter.toString()),
            RunListener.NONE);
    StepRecord flaky = run.step("flaky").orElseThrow();
    assertThat(flaky.status()).isEqualTo(StepStatus.SUCCEEDED);
    assertThat(flaky.attempts()).isEqualTo(3);
    assertThat(Files.readAllLines(counter)).hasSize(3);
  }

  @Test
  void aFailedStepFailsTheRunKeepsItsErrorAndLeavesLaterStepsPending() throws Exception {
    RunRecord run =
        run(
            """
            name: broken
            version: '1'
            capabilities: [shell]
            steps:
              - id: fine
                kind: transform
                with: {expression: '1'}
              - id: broken
                kind: shell
                retry: {attempts: 2, backoff: 1ms}
                with: {script: 'echo oops >&2; exit 3'}
              - id: never
                kind: transform
                with: {expression: '2'}
            """);
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    StepRecord broken = run.step("broken").orElseThrow();
    assertThat(broken.status()).isEqualTo(StepStatus.FAILED);
    assertThat(broken.attempts()).isEqualTo(2);
    assertThat(broken.error().kind()).isEqualTo("exit_status");
    assertThat(broken.output().path("stderr").asString()).contains("oops");
    assertThat(run.step("never").orElseThrow().status()).isEqualTo(StepStatus.PENDING);
    assertThat(run.error().step()).isEqualTo("broken");
    assertThat(store.load(run.runId()).orElseThrow().record().error().kind())
        .isEqualTo("exit_status");
  }

  @Test
  void inputsThatFailTheKindsSchemaAreNotRetried() throws Exception {
    RunRecord run =
        run(
            """
            name: bad-input
            version: '1'
            capabilities: [network]
            steps:
              - id: get
                kind: http
                retry: {attempts: 3}
                with: {url: '${{ 42 }}'}
            """);
    StepRecord get = run.step("get").orElseThrow();
    assertThat(get.error().kind()).isEqualTo("invalid_input");
    assertThat(get.error().message()).contains("url");
    assertThat(get.attempts()).isEqualTo(1);
  }

  @Test
  void aStepOverItsTimeoutFailsWithKindTimeout() throws Exception {
    RunRecord run =
        run(
            """
            name: slow
            version: '1'
            capabilities: [shell]
            steps:
              - id: slow
                kind: shell
                timeout: 300ms
                retry: {attempts: 2, backoff: 1ms}
                with: {argv: [sleep, '30']}
            """);
    StepRecord slow = run.step("slow").orElseThrow();
    assertThat(slow.status()).isEqualTo(StepStatus.FAILED);
    assertThat(slow.error().kind()).isEqualTo("timeout");
    assertThat(slow.attempts()).isEqualTo(2);
    assertThat(slow.durationMs()).isLessThan(20_000);
  }

  @Test
  void anInterruptedRunResumesFromItsFirstUnfinishedStep() throws Exception {
    String yaml =
        """
        name: resumable
        version: '1'
        steps:
          - id: first
            kind: transform
            with: {expression: '"kept"'}
          - id: second
            kind: transform
            with: {expression: '.steps.first + " and resumed"'}
        """;
    // A run whose process died after the first step was committed.
    RunRequest request = request(yaml, Map.of());
    RunRecord begun =
        RunRecord.builder(RunIds.next(Instant.now()), RunStatus.RUNNING)
            .workflow("resumable")
            .version("1")
            .source(request.source())
            .parameters(Json.tree(Map.of()))
            .engine(EmbeddedEngine.NAME)
            .startedAt(Instant.now().toString())
            .stepsTotal(2)
            .steps(
                List.of(
                    StepRecord.pending("first", "transform"),
                    StepRecord.pending("second", "transform")))
            .build();
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    store.create(begun, yaml, new RunStore.Owner(gone.pid(), "2000-01-01T00:00:00Z"));
    StepRecord first =
        new StepRecord(
            "first",
            "transform",
            StepStatus.SUCCEEDED,
            1,
            "2026-01-01T00:00:00Z",
            "2026-01-01T00:00:01Z",
            1000L,
            RunCost.ZERO,
            null,
            Json.tree("kept"),
            "a string",
            null,
            null);
    RunRecord afterFirst =
        begun.toBuilder().stepsCompleted(1).steps(List.of(first, begun.steps().get(1))).build();
    store.saveStep(afterFirst, 0);

    assertThat(store.sweep()).containsExactly(begun.runId());
    assertThat(store.load(begun.runId()).orElseThrow().record().status())
        .isEqualTo(RunStatus.INTERRUPTED);

    RunRecord resumed = engine.resume(begun.runId(), RunListener.NONE).await();
    assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(resumed.resumes()).isEqualTo(1);
    assertThat(resumed.step("first").orElseThrow().startedAt()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(resumed.step("second").orElseThrow().output().asString())
        .isEqualTo("kept and resumed");
    assertThatThrownBy(() -> engine.resume(begun.runId(), RunListener.NONE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("succeeded");
  }

  @Test
  void aRunningRunOfALiveProcessIsNotSwept() throws Exception {
    RunHandle handle =
        engine.start(
            request(
                """
                name: live
                version: '1'
                capabilities: [shell]
                steps:
                  - id: wait
                    kind: shell
                    with: {argv: [sleep, '1']}
                """,
                Map.of()),
            RunListener.NONE);
    assertThat(store.sweep()).doesNotContain(handle.runId());
    assertThat(handle.await().status()).isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void runIdsAreUniqueWithinOneSecond() throws Exception {
    Instant now = Instant.parse("2026-11-30T10:00:00Z");
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      ids.add(RunIds.next(now));
    }
    assertThat(ids).hasSize(10_000);
    String yaml =
        """
        name: twin
        version: '1'
        steps:
          - id: only
            kind: transform
            with: {expression: '1'}
        """;
    RunHandle a = engine.start(request(yaml, Map.of()), RunListener.NONE);
    RunHandle b = engine.start(request(yaml, Map.of()), RunListener.NONE);
    assertThat(a.runId()).isNotEqualTo(b.runId());
    a.await();
    b.await();
    assertThat(Files.exists(new TraceFiles(home).file(a.runId()))).isTrue();
    assertThat(Files.exists(new TraceFiles(home).file(b.runId()))).isTrue();
  }
}
