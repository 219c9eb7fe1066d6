package dev.cortex.cli.server;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cortex server stop}: stops the agent server of this home gracefully (SIGTERM, as Ctrl-C
 * does: sessions are stopped, devices told, the hub closed) and waits for it to exit.
 */
@Command(
    name = "stop",
    mixinStandardHelpOptions = true,
    description = {
      "Stop the agent server of this home gracefully and wait for it to exit.",
      "Exit codes: 0 it stopped; 3 no server runs for this home; 1 it did not stop within"
          + " --timeout (it goes on stopping; --force ends it at once)."
    })
public final class ServerStopCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      defaultValue = "30",
      description = "How long to wait for it to exit (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Option(
      names = "--force",
      description = "End it at once (SIGKILL) instead, without a graceful stop.")
  boolean force;

  public ServerStopCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws InterruptedException {
    if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
      return CortexCommand.usage(io, "cortex server stop: --timeout is 1 to 3600 seconds.");
    }
    RunningServer server = RunningServer.of(io.home());
    if (server == null) {
      io.err().println("cortex server: not running for " + io.home().root());
      return ServerStatusCommand.NOT_RUNNING;
    }
    boolean asked = force ? server.process().destroyForcibly() : server.process().destroy();
    if (!asked) {
      io.err().println("cortex server: pid " + server.pid() + " cannot be stopped by this user.");
      return CortexCommand.FAILED;
    }
    try {
      server.process().onExit().get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      io.err()
          .println(
              "cortex server: pid "
                  + server.pid()
                  + " is still stopping after "
                  + timeoutSeconds
                  + " s; wait, or end it with --force.");
      return CortexCommand.FAILED;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot tell whether the server exited", e.getCause());
    }
    io.err().println("cortex server: stopped (pid " + server.pid() + ").");
    return CortexCommand.OK;
  }
}
