package dev.cortex.cli.workflows;

import dev.cortex.base.CortexHome;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.temporal.TemporalSettings;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cortex worker}: a Temporal worker for workflow runs, on the cluster and task queue of the
 * settings, until it is stopped. Runs it interprets are recorded in this process's {@code
 * CORTEX_HOME}.
 */
@Command(
    name = "worker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a Temporal worker for workflow runs until stopped (Ctrl-C, SIGTERM).",
      "The cluster comes from [temporal] in $CORTEX_HOME/config/cortex.toml and the"
          + " CORTEX_TEMPORAL_* variables. Logs go to standard error."
    })
public final class WorkerCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--task-queue",
      paramLabel = "QUEUE",
      description = "The task queue to poll (default: the settings' task_queue).")
  String taskQueue;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description = "How many step attempts this worker runs at once (default: ${DEFAULT-VALUE}).")
  int concurrency = 64;

  @Option(
      names = "--workflow-cache",
      paramLabel = "N",
      description =
          "How many runs this worker keeps in memory between their steps (default:"
              + " ${DEFAULT-VALUE}); 0 replays a run's history at each step, on whichever worker"
              + " takes it.")
  int workflowCache = 600;

  public WorkerCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    Services services = new Services(io);
    TemporalSettings settings = services.settings().temporal();
    if (taskQueue != null) {
      if (taskQueue.isBlank()) {
        return usage("--task-queue must not be empty");
      }
      settings = settings.withTaskQueue(taskQueue);
    }
    if (concurrency < 1) {
      return usage("--concurrency must be at least 1");
    }
    if (workflowCache < 0) {
      return usage("--workflow-cache must not be negative");
    }
    CortexHome home = io.home();
    AutoCloseable worker;
    try {
      worker =
          TemporalSupport.worker(
              settings,
              io.env(),
              home,
              new RunStore(services.database()),
              new TraceFiles(home),
              new ActivityEnvironment(home, io.env(), Clock.systemUTC()),
              concurrency,
              workflowCache);
    } catch (IllegalStateException | IllegalArgumentException e) {
      io.err().println("cortex worker: " + e.getMessage());
      return CortexCommand.FAILED;
    }
    io.err()
        .println(
            "cortex worker: polling "
                + settings.where()
                + "; runs are recorded in "
                + home.root()
                + ". Stop with Ctrl-C.");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    worker.close();
                  } catch (Exception e) {
                    io.err().println("cortex worker: stopping: " + e);
                  }
                  stopped.countDown();
                },
                "cortex-worker-stop"));
    stopped.await();
    return CortexCommand.OK;
  }

  private int usage(String problem) {
    return CortexCommand.usage(io, "cortex worker: " + problem);
  }
}
