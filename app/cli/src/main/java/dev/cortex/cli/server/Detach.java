package dev.cortex.cli.server;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex server --detach}: starts the server as a process of its own that outlives the
 * command, logging to {@code $CORTEX_HOME/logs/server.log}, and returns once the server has
 * described itself in {@code data/server.json} (or says why it did not start).
 */
final class Detach {
  /** How long the server may take to describe itself. */
  private static final Duration WAIT = Duration.ofSeconds(60);

  /** How often {@code data/server.json} is read meanwhile. */
  private static final Duration POLL = Duration.ofMillis(100);

  private Detach() {}

  static int start(Io io, AgentServerCommand command) throws IOException, InterruptedException {
    CortexHome home = io.home();
    Path log = home.root().resolve("logs").resolve("server.log");
    CortexHome.ensureDirectory(log.getParent());
    Path serverFile = home.dataDir().resolve(Webhook.SERVER_FILE);
    List<String> argv = new ArrayList<>(Launcher.command(io));
    argv.add("server");
    argv.add("--log-file");
    argv.add(log.toString());
    if (command.webhookPort != null) {
      argv.add("--webhook-port=" + command.webhookPort);
    }
    if (command.hubPort != null) {
      argv.add("--hub-port=" + command.hubPort);
    }
    if (command.hubBind != null) {
      argv.add("--hub-bind=" + command.hubBind);
    }
    Processes.Detached process =
        Processes.startDetached(ProcessSpec.builder(argv, io.env()).build(), log);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode self = read(serverFile);
      if (self != null && self.path("pid").asLong() == process.pid()) {
        io.err()
            .println(
                "cortex server started in the background (pid "
                    + process.pid()
                    + "): webhook 127.0.0.1:"
                    + self.path("webhook_port").asInt()
                    + ", device hub port "
                    + self.path("hub_port").asInt()
                    + ". Log: "
                    + log
                    + ". Stop it with: kill "
                    + process.pid());
        return CortexCommand.OK;
      }
      Integer exitCode = exited(process, POLL);
      if (exitCode != null) {
        io.err()
            .println(
                "cortex: the server did not start (exit code " + exitCode + "). From its log:");
        tail(log).forEach(line -> io.err().println("  " + line));
        return CortexCommand.FAILED;
      }
    }
    io.err().println("cortex: the server did not answer within 60 s; see " + log);
    return CortexCommand.FAILED;
  }

  /** The server's exit code once it has ended, waiting up to {@code wait}; null while it runs. */
  private static Integer exited(Processes.Detached process, Duration wait)
      throws InterruptedException {
    try {
      return process.exitCode().get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return null;
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot tell whether the server ended", e.getCause());
    }
  }

  private static JsonNode read(Path file) {
    try {
      return Files.isRegularFile(file) ? Json.mapper().readTree(Files.readString(file)) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static List<String> tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return lines.subList(Math.max(0, lines.size() - 10), lines.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}
