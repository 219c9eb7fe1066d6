package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * A real {@code cortex server} process on loopback ports of its own, with a home of its own, and
 * the devices ({@code cortex client} processes) connected to it. Tests wait on observable state
 * (the server file, the device list) with a deadline; they never sleep for a fixed time.
 */
final class AgentServer implements AutoCloseable {
  static final Duration LIMIT = Duration.ofSeconds(90);
  static final HttpClient HTTP = HttpClient.newHttpClient();

  final Path home;
  final Map<String, String> env;
  Process process;
  final StringBuffer stderr = new StringBuffer();
  int webhookPort;
  int hubPort;
  private final List<Device> devices = new ArrayList<>();

  AgentServer(Path home, Map<String, String> extraEnv) {
    this.home = home;
    this.env = new HashMap<>(CortexProcess.env(home));
    this.env.putAll(extraEnv);
  }

  /** Writes machines.json. */
  AgentServer machines(String json) throws IOException {
    Files.createDirectories(home);
    Files.writeString(home.resolve("machines.json"), json);
    return this;
  }

  /** Starts the server on free ports (or the given ones) and waits until it describes itself. */
  AgentServer start(int webhook, int hub) throws IOException {
    Path serverFile = home.resolve("data").resolve("server.json");
    Files.deleteIfExists(serverFile);
    process = spawn(env, stderr, "server", "--webhook-port=" + webhook, "--hub-port=" + hub);
    await(
        () -> Files.isRegularFile(serverFile) || !process.isAlive(),
        "the server to describe itself");
    assertThat(process.isAlive()).as("server alive; stderr: %s", stderr).isTrue();
    JsonNode self = ToolContract.JSON.readTree(Files.readString(serverFile));
    webhookPort = self.path("webhook_port").asInt();
    hubPort = self.path("hub_port").asInt();
    return this;
  }

  AgentServer start() throws IOException {
    return start(0, 0);
  }

  String token() throws IOException {
    return Files.readString(home.resolve("config").resolve("webhook-token")).strip();
  }

  /** The hub's URL: wss when the server was given a keystore. */
  String hubUrl() {
    boolean tls;
    try {
      Path toml = home.resolve("config").resolve("cortex.toml");
      tls = Files.isRegularFile(toml) && Files.readString(toml).contains("hub_keystore");
    } catch (IOException e) {
      tls = false;
    }
    return (tls ? "wss" : "ws") + "://127.0.0.1:" + hubPort;
  }

  /** Issues an enrolment code for {@code device}. */
  String enrol(String device) throws IOException, InterruptedException {
    CortexProcess.Finished run = CortexProcess.run(env, "server", "enroll", device);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return run.stdout().strip();
  }

  /** Starts a device client and waits until the hub lists it online. */
  Device connect(String name, Path deviceHome, Map<String, String> deviceEnv, String... extra)
      throws IOException {
    Device device = Device.start(this, name, deviceHome, deviceEnv, extra);
    awaitOnline(name, true);
    return device;
  }

  /** The webhook's device list. */
  JsonNode devices() throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + webhookPort + "/webhook/devices"))
                .header("x-cortex-token", token())
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return ToolContract.JSON.readTree(response.body()).path("result").path("devices");
  }

  boolean online(String name) {
    try {
      for (JsonNode device : devices()) {
        if (device.path("name").asString().equals(name)) {
          return device.path("online").asBoolean();
        }
      }
      return false;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void awaitOnline(String name, boolean online) {
    await(() -> online(name) == online, name + (online ? " online" : " offline"));
  }

  /** POSTs to the webhook with the given headers (a token or not) and returns the response. */
  HttpResponse<String> post(String path, String body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webhookPort + path))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.forEach(request::header);
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Stops the server with SIGTERM and returns its exit code (143, as for any JVM that a SIGTERM
   * ended, once its shutdown completed).
   */
  int stop() throws InterruptedException {
    // Through the handle: Process.destroy would also close the pipes and lose the log's end.
    process.toHandle().destroy();
    assertThat(process.waitFor(LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
        .as("server stopped; stderr: %s", stderr)
        .isTrue();
    // The log ends with the process; wait until all of it has been read.
    await(() -> stderr.toString().contains("agent server stopped") || pumped(), "the server's log");
    return process.exitValue();
  }

  private boolean pumped() {
    return PUMPS.getOrDefault(process, Thread.currentThread()).getState()
        == Thread.State.TERMINATED;
  }

  private static final Map<Process, Thread> PUMPS = new java.util.concurrent.ConcurrentHashMap<>();

  @Override
  public void close() {
    devices.forEach(Device::close);
    if (process != null) {
      process.destroyForcibly();
    }
  }

  static Process spawn(Map<String, String> env, StringBuffer stderr, String... args)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(CortexProcess.command(args));
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    Thread pump =
        new Thread(
            () -> {
              try (var reader =
                  new java.io.BufferedReader(
                      new java.io.InputStreamReader(
                          process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                  stderr.append(line).append('\n');
                }
              } catch (IOException ignored) {
                // the process went away
              }
            });
    pump.setDaemon(true);
    pump.start();
    PUMPS.put(process, pump);
    return process;
  }

  /** Waits until {@code done} holds, failing after {@link #LIMIT}. */
  static void await(BooleanSupplier done, String what) {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    long pause = 10;
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      pause = Math.min(200, pause * 2);
    }
  }

  /** A {@code cortex client} process. */
  static final class Device implements AutoCloseable {
    final String name;
    final Process process;
    final StringBuffer stderr;

    private Device(String name, Process process, StringBuffer stderr) {
      this.name = name;
      this.process = process;
      this.stderr = stderr;
    }

    static Device start(
        AgentServer server, String name, Path home, Map<String, String> extraEnv, String... extra)
        throws IOException {
      Map<String, String> env = new HashMap<>(CortexProcess.env(home));
      env.putAll(extraEnv);
      List<String> args =
          new ArrayList<>(List.of("client", "--server", server.hubUrl(), "--name", name));
      args.addAll(List.of(extra));
      StringBuffer err = new StringBuffer();
      Process process = spawn(env, err, args.toArray(String[]::new));
      Device device = new Device(name, process, err);
      // Every device started for a server ends with it, whatever the test did.
      server.devices.add(device);
      return device;
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }
}
