package dev.cortex.e2e.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A {@code cortex worker} process of the built jar, ready once it says it is polling. */
final class WorkerProcess implements AutoCloseable {
  final Process process;
  final StringBuffer stderr = new StringBuffer();

  private WorkerProcess(Process process) {
    this.process = process;
  }

  /** Starts {@code cortex worker ARGS} with {@code env} and waits until it polls. */
  static WorkerProcess start(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("worker"));
    command.addAll(List.of(args));
    WorkerProcess worker =
        new WorkerProcess(CortexProcess.start(env, command.toArray(String[]::new)));
    worker.process.getOutputStream().close();
    CountDownLatch polling = new CountDownLatch(1);
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(
                          worker.process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                  worker.stderr.append(line).append('\n');
                  if (line.startsWith("cortex worker: polling")) {
                    polling.countDown();
                  }
                }
              } catch (IOException ignored) {
                // the worker ended
              }
            });
    pump.setDaemon(true);
    pump.start();
    assertThat(polling.await(60, TimeUnit.SECONDS))
        .as("the worker polls; its stderr: %s", worker.stderr)
        .isTrue();
    return worker;
  }

  long pid() {
    return process.pid();
  }

  /** Kills the worker as a crash would (SIGKILL), and waits for it to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
