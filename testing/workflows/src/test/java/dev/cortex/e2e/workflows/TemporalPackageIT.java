package dev.cortex.e2e.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The packaged cortex.jar alone, copied into an empty directory, runs a workflow on Temporal: its
 * worker and its starter load the Temporal runtime the jar carries and find it as a service. A
 * dependency of the runtime left out of the jar, or a runtime that no longer fits the command's
 * interface, fails here, at build time.
 */
class TemporalPackageIT {
  @TempDir Path alone;
  @TempDir Path home;

  private ProcessBuilder cortex(Path jar, Map<String, String> env, String... args) {
    List<String> command =
        new java.util.ArrayList<>(List.of(CortexProcess.java(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(alone.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder;
  }

  @Test
  void theJarAlone_runsAWorkflowOnTemporal() throws Exception {
    Path jar = Files.copy(CortexProcess.jar(), alone.resolve("cortex.jar"));
    Path manifest =
        Files.writeString(
            alone.resolve("hello.yaml"),
            """
            name: hello
            version: "1"
            capabilities: [shell]
            steps:
              - id: greet
                kind: shell
                with: {argv: [echo, hello from temporal]}
              - id: shout
                kind: transform
                with: {expression: '.steps.greet.stdout | ascii_upcase'}
            """);
    try (TemporalCluster cluster = TemporalCluster.start()) {
      Map<String, String> env = CortexProcess.env(home);
      env.putAll(cluster.env("package"));
      Process worker = cortex(jar, env, "worker").start();
      try {
        worker.getOutputStream().close();
        CountDownLatch polling = new CountDownLatch(1);
        StringBuffer log = new StringBuffer();
        Thread pump =
            new Thread(
                () -> {
                  try (BufferedReader lines =
                      new BufferedReader(
                          new InputStreamReader(worker.getErrorStream(), StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                      log.append(line).append('\n');
                      if (line.startsWith("cortex worker: polling")) {
                        polling.countDown();
                      }
                    }
                  } catch (java.io.IOException ignored) {
                    // the worker ended
                  }
                });
        pump.setDaemon(true);
        pump.start();
        assertThat(polling.await(120, TimeUnit.SECONDS)).as("worker: %s", log).isTrue();

        Process run =
            cortex(jar, env, "run", manifest.toString(), "--yes", "--no-progress", "--json")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        run.getOutputStream().close();
        String stdout = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertThat(run.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).as(stdout).isZero();
        JsonNode trace = TestJson.JSON.readTree(stdout);
        assertThat(trace.path("engine").asString()).isEqualTo("temporal");
        assertThat(trace.path("status").asString()).isEqualTo("succeeded");
        assertThat(WorkflowServer.step(trace, "shout").path("output").asString())
            .isEqualTo("HELLO FROM TEMPORAL\n");
        assertThat(home.resolve("tmp").resolve("temporal")).isDirectory();
      } finally {
        worker.destroy();
        worker.waitFor(10, TimeUnit.SECONDS);
        worker.destroyForcibly();
      }
    }
  }
}
