package dev.cortex.cli.server;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex server --detach}: starts the server as a process of its own that outlives the
 * command, logging to {@code $CORTEX_HOME/logs/server.log}, and returns once the server has
 * described itself in {@code data/server.json} (or says why it did not start).
 */
final class Detach {
  private static final long WAIT_MILLIS = 60_000;

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
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(io.env());
    builder.redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    while (System.currentTimeMillis() < deadline) {
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
      if (!process.isAlive()) {
        io.err()
            .println(
                "cortex: the server did not start (exit code "
                    + process.exitValue()
                    + "). From its log:");
        tail(log).forEach(line -> io.err().println("  " + line));
        return CortexCommand.FAILED;
      }
      Thread.sleep(100);
    }
    io.err().println("cortex: the server did not answer within 60 s; see " + log);
    return CortexCommand.FAILED;
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
