package dev.cortex.workflows.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.storage.Database;
import dev.cortex.testing.Eventually;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Stopping runs on the embedded engine with real processes: the running step's whole tree ends, no
 * later step starts, the trace says who cancelled and when; a run's recorded process groups are
 * ended before it is resumed or cancelled after its process died.
 */
class CancelTest {
  static final Duration LIMIT = Duration.ofSeconds(60);

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

  /** A run whose first step leaves a background sleep and sleeps; the second leaves a marker. */
  private RunRequest twoSteps() throws Exception {
    String yaml =
        """
        name: stoppable
        version: '1'
        capabilities: [shell]
        steps:
          - id: work
            kind: shell
            with:
              script: "sleep 300 & echo $! > %1$s/child.tmp; echo $$ > %1$s/leader.tmp; mv %1$s/child.tmp %1$s/child; mv %1$s/leader.tmp %1$s/leader; sleep 300"
          - id: after
            kind: shell
            with: {argv: [touch, "%1$s/after"]}
        """
            .formatted(dir);
    Manifest manifest = ManifestLoader.parse("stoppable.yaml", yaml);
    return new RunRequest(
        manifest, yaml, new WorkflowRef("path", "stoppable.yaml", "stoppable.yaml"), Map.of());
  }

  private long pid(String name) throws IOException {
    return Long.parseLong(Files.readString(dir.resolve(name)).strip());
  }

  @Test
  void cancel_duringAStep_endsItsTree_startsNoLaterStep_andTheTraceSaysWhoAndWhen()
      throws Exception {
    RunHandle handle = engine.start(twoSteps(), RunListener.NONE);
    Eventually.until(
        "the step reported its processes", LIMIT, () -> Files.exists(dir.resolve("leader")));
    long leader = pid("leader");
    long child = pid("child");

    handle.cancel(new RunCancellation("a test", "2026-12-01T10:00:00Z", "no longer wanted"));
    RunRecord run = handle.await();

    assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(run.cancelled())
        .isEqualTo(new RunCancellation("a test", "2026-12-01T10:00:00Z", "no longer wanted"));
    assertThat(run.step("work").orElseThrow().status()).isEqualTo(StepStatus.CANCELLED);
    assertThat(run.step("after").orElseThrow().status()).isEqualTo(StepStatus.PENDING);
    assertThat(run.error().kind()).isEqualTo("cancelled");
    assertThat(run.error().message())
        .isEqualTo("cancelled by a test at 2026-12-01T10:00:00Z: no longer wanted");
    assertThat(running(leader)).isFalse();
    assertThat(running(child)).isFalse();
    assertThat(dir.resolve("after")).doesNotExist();
    JsonNode trace = Json.mapper().readTree(new TraceFiles(home).file(run.runId()));
    assertThat(trace.path("status").asString()).isEqualTo("cancelled");
    assertThat(trace.path("cancelled").path("by").asString()).isEqualTo("a test");
    RunRecord stored = store.load(run.runId()).orElseThrow().record();
    assertThat(stored.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(stored.cancelled()).isEqualTo(run.cancelled());
    assertThat(stored.step("work").orElseThrow().status()).isEqualTo(StepStatus.CANCELLED);
    assertThat(store.groups().of(run.runId())).isEmpty();
  }

  @Test
  void cancel_askedThroughTheRunsRow_asAnotherProcessWould_stopsTheRun() throws Exception {
    RunHandle handle = engine.start(twoSteps(), RunListener.NONE);
    Eventually.until(
        "the step reported its processes", LIMIT, () -> Files.exists(dir.resolve("leader")));
    long child = pid("child");

    assertThat(store.requestCancel(handle.runId(), new RunCancellation("elsewhere", "now", null)))
        .isTrue();
    RunRecord run = handle.await();

    assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(run.cancelled().by()).isEqualTo("elsewhere");
    assertThat(running(child)).isFalse();
    assertThat(dir.resolve("after")).doesNotExist();
  }

  @Test
  void cancel_ofAnEndedRun_isRefused() throws Exception {
    RunRecord done =
        engine
            .start(
                request(
                    """
                    name: quick
                    version: '1'
                    steps:
                      - id: only
                        kind: transform
                        with: {expression: '1'}
                    """),
                RunListener.NONE)
            .await();

    assertThatThrownBy(() -> engine.cancel(done.runId(), new RunCancellation("late", "now", null)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("succeeded");
  }

  @Test
  void cancel_ofARunWhoseProcessDied_endsItsSurvivingGroupAndRecordsTheCancel() throws Exception {
    RunningProcess survivor = orphanedAttempt();
    RunRecord begun = deadOwnerRun(survivor);

    engine.cancel(begun.runId(), new RunCancellation("a person", "2026-12-01T11:00:00Z", null));

    Eventually.until("the survivor ended", LIMIT, () -> !running(survivor.pid()));
    RunRecord run = store.load(begun.runId()).orElseThrow().record();
    assertThat(run.status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(run.step("work").orElseThrow().status()).isEqualTo(StepStatus.CANCELLED);
    assertThat(store.groups().of(begun.runId())).isEmpty();
    assertThat(Json.mapper().readTree(new TraceFiles(home).file(run.runId())).path("status"))
        .hasToString("\"cancelled\"");
  }

  @Test
  void resume_endsWhatTheInterruptedAttemptLeftRunning_beforeItsStepRunsAgain() throws Exception {
    RunningProcess survivor = orphanedAttempt();
    RunRecord begun = deadOwnerRun(survivor);
    assertThat(store.sweep()).containsExactly(begun.runId());

    RunRecord resumed = engine.resume(begun.runId(), RunListener.NONE).await();

    assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(resumed.step("work").orElseThrow().output().path("stdout").asString().strip())
        .as("the old attempt was gone when the new one looked")
        .isEqualTo("gone");
    assertThat(running(survivor.pid())).isFalse();
    assertThat(store.groups().of(begun.runId())).isEmpty();
  }

  /**
   * What an attempt of a killed process leaves: a group (a sleep) that keeps running, recorded with
   * the run.
   */
  private RunningProcess orphanedAttempt() throws IOException {
    return Processes.start(
        ProcessSpec.builder(List.of("sleep", "300"), Map.of("PATH", "/usr/bin:/bin"))
            .keepGroupAfterExit()
            .build(),
        OutputListener.NONE);
  }

  /** A run of one shell step, running, whose owner process is gone, with {@code survivor}. */
  private RunRecord deadOwnerRun(RunningProcess survivor) throws Exception {
    String yaml =
        """
        name: survivor
        version: '1'
        capabilities: [shell]
        steps:
          - id: work
            kind: shell
            with:
              script: "if [ -e /proc/%1$d ] && ! grep -q ') Z' /proc/%1$d/stat; then echo alive; else echo gone; fi"
        """
            .formatted(survivor.pid());
    RunRequest request = request(yaml);
    RunRecord begun = RunRecord.starting(RunIds.next(Instant.now()), request, "embedded", "now");
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    store.create(begun, yaml, new RunStore.Owner(gone.pid(), "2000-01-01T00:00:00Z"));
    store
        .groups()
        .record(begun.runId(), new RunGroups.Group(survivor.groupId(), 0, survivor.startedAt()));
    return begun;
  }

  private RunRequest request(String yaml) throws Exception {
    Manifest manifest = ManifestLoader.parse("test.yaml", yaml);
    return new RunRequest(
        manifest, yaml, new WorkflowRef("path", "test.yaml", "test.yaml"), Map.of());
  }

  /** Whether {@code pid} runs (a zombie has ended). */
  static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }
}
