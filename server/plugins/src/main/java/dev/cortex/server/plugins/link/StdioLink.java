package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import dev.cortex.process.LineSplitter;
import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.process.StandardStream;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * A plugin's local server, started on Cortex's process runner as the leader of a process group of
 * its own (closing the link ends the group): a JSON-RPC message per line each way.
 */
final class StdioLink implements PluginLink {
  /** The longest line taken from the server. */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  private static final Duration CLOSE_GRACE = Duration.ofMillis(300);

  private final PluginServer.Stdio server;
  private final Map<String, String> environment;
  private final Consumer<String> stderr;
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile RunningProcess process;
  private volatile String exited;

  StdioLink(PluginServer.Stdio server, Map<String, String> environment, Consumer<String> stderr) {
    this.server = server;
    this.environment = environment;
    this.stderr = stderr;
  }

  @Override
  public void start(Consumer<JsonNode> inbound, Consumer<String> onEnd) throws IOException {
    Map<String, String> env = new HashMap<>(environment);
    env.putAll(server.env());
    List<String> argv = new ArrayList<>();
    argv.add(server.command());
    argv.addAll(server.args());
    ProcessSpec.Builder spec = ProcessSpec.builder(argv, env).stdinOpen().capture(0, 0);
    if (server.cwd() != null) {
      spec.directory(Path.of(server.cwd()));
    }
    String name = "server " + server.name();
    LineSplitter out =
        new LineSplitter(
            MAX_LINE_BYTES,
            line -> {
              if (line.isBlank()) {
                return;
              }
              JsonNode message;
              try {
                message = Json.mapper().readTree(line);
              } catch (RuntimeException e) {
                stderr.accept(name + " wrote a line on stdout that is not JSON; it was dropped");
                return;
              }
              inbound.accept(message);
            },
            () -> stderr.accept(name + " wrote an over-long line; it was dropped"));
    LineSplitter err = new LineSplitter(64 * 1024, stderr, () -> {});
    OutputListener listener =
        (stream, bytes, offset, length) ->
            (stream == StandardStream.STDOUT ? out : err).accept(bytes, offset, length);
    RunningProcess running;
    try {
      running = Processes.start(spec.build(), listener);
    } catch (IOException | RuntimeException e) {
      throw new LinkFailure(name + " (" + server.summary().executable() + ") could not be started");
    }
    process = running;
    Thread watcher =
        new Thread(
            () -> {
              try {
                var result = running.await();
                exited = name + " exited (exit code " + result.exitCode() + ")";
                if (ended.compareAndSet(false, true)) {
                  onEnd.accept(exited);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "plugin-stdio-exit");
    watcher.setDaemon(true);
    watcher.start();
  }

  @Override
  public void send(JsonNode message) throws IOException {
    RunningProcess running = process;
    if (exited != null) {
      throw new LinkFailure(exited);
    }
    if (running == null || ended.get()) {
      throw new LinkFailure("server " + server.name() + " is not running");
    }
    byte[] line = (Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8);
    OutputStream in = running.stdin();
    try {
      synchronized (in) {
        in.write(line);
        in.flush();
      }
    } catch (IOException e) {
      // Most often it has just exited: say so, with its exit code.
      try {
        var exit = running.await(Duration.ofSeconds(2));
        if (exit.isPresent()) {
          throw new LinkFailure(
              "server " + server.name() + " exited (exit code " + exit.get().exitCode() + ")");
        }
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      throw new LinkFailure("server " + server.name() + " no longer reads its input");
    }
  }

  @Override
  public void close() {
    ended.set(true);
    RunningProcess running = process;
    if (running != null) {
      running.closeInputThenEnd(CLOSE_GRACE);
    }
  }
}
