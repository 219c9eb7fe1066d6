package dev.cortex.workflows.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ProcessObserver;
import dev.cortex.workflows.activity.RunScope;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded engine's attempts and the pauses between them, over real shell steps; the pauses are
 * recorded instead of slept.
 */
class LocalExecutorTest {
  @TempDir Path dir;

  private final Activities activities = Activities.standard();
  private final List<Duration> pauses = new CopyOnWriteArrayList<>();
  private final Backoff.Sleeper recording = pauses::add;
  private ActivityEnvironment environment;
  private RunScope scope;

  @BeforeEach
  void open() {
    CortexHome home = new CortexHome(dir.resolve("home"), dir.resolve("home").resolve("data"));
    environment = new ActivityEnvironment(home, System.getenv(), Clock.systemUTC());
    scope = new RunScope();
  }

  @AfterEach
  void close() {
    scope.close();
  }

  private StepRecord run(String yaml, Backoff backoff) throws Exception {
    Manifest manifest = ManifestLoader.parse("test.yaml", yaml);
    LocalExecutor executor =
        new LocalExecutor(activities, environment, scope, ProcessObserver.NONE, backoff);
    return new StepRunner(activities, environment)
        .run(
            manifest.steps().get(0),
            manifest,
            Jq.Context.of(Json.tree(Map.of("counter", dir.resolve("count").toString()))),
            executor);
  }

  private static String shell(String retry, String script) {
    return """
        name: retried
        version: '1'
        capabilities: [shell]
        parameters:
          counter: {type: string, required: true}
        steps:
          - id: flaky
            kind: shell
            retry: %s
            with:
              script: '%s'
        """
        .formatted(retry, script);
  }

  @Test
  void attempts_failingEveryTime_pausesTheStepsBackoffBeforeEachNewAttempt() throws Exception {
    StepRecord step =
        run(
            shell("{attempts: 3, backoff: 250ms}", "exit 1"),
            new Backoff(Backoff.MANIFEST.delay(), recording));

    assertThat(step.status()).isEqualTo(StepStatus.FAILED);
    assertThat(step.attempts()).isEqualTo(3);
    assertThat(pauses).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
  }

  @Test
  void attempts_succeedingOnTheSecond_pausesOnce() throws Exception {
    StepRecord step =
        run(
            shell(
                "{attempts: 5, backoff: 2s}",
                "echo x >> ${{ .params.counter }}; test $(wc -l < ${{ .params.counter }}) -ge 2"),
            new Backoff(Backoff.MANIFEST.delay(), recording));

    assertThat(step.status()).isEqualTo(StepStatus.SUCCEEDED);
    assertThat(step.attempts()).isEqualTo(2);
    assertThat(pauses).containsExactly(Duration.ofSeconds(2));
    assertThat(Files.readAllLines(dir.resolve("count"))).hasSize(2);
  }

  @Test
  void attempts_delayGivenTheAttempt_pausesAsItSays() throws Exception {
    List<Integer> asked = new CopyOnWriteArrayList<>();
    Backoff growing =
        new Backoff(
            (retry, attempt) -> {
              asked.add(attempt);
              return retry.backoff().multipliedBy(attempt - 1);
            },
            recording);

    run(shell("{attempts: 4, backoff: 100ms}", "exit 1"), growing);

    assertThat(asked).containsExactly(2, 3, 4);
    assertThat(pauses)
        .containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300));
  }

  @Test
  void attempts_failureThatMustNotBeRetried_neverPauses() throws Exception {
    StepRecord step =
        run(
            """
            name: missing
            version: '1'
            capabilities: [shell]
            steps:
              - id: gone
                kind: shell
                retry: {attempts: 3, backoff: 1s}
                with: {argv: [no-such-program-of-cortex-tests]}
            """,
            new Backoff(Backoff.MANIFEST.delay(), recording));

    assertThat(step.status()).isEqualTo(StepStatus.FAILED);
    assertThat(step.attempts()).isEqualTo(1);
    assertThat(pauses).isEmpty();
  }

  @Test
  void attempts_interruptedWhilePausing_failsWithTheAttemptsMadeSoFar() throws Exception {
    Backoff interrupted =
        new Backoff(
            Backoff.MANIFEST.delay(),
            pause -> {
              pauses.add(pause);
              throw new InterruptedException("the run was cancelled");
            });

    StepRecord step = run(shell("{attempts: 3, backoff: 1s}", "exit 1"), interrupted);
    boolean stillInterrupted = Thread.interrupted();

    assertThat(step.status()).isEqualTo(StepStatus.FAILED);
    assertThat(step.attempts()).isEqualTo(1);
    assertThat(pauses).containsExactly(Duration.ofSeconds(1));
    assertThat(stillInterrupted).as("the interrupt is kept for the run").isTrue();
  }
}
