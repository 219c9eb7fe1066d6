package dev.cortex.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures {@code remote_bash} of {@code true} through everything it crosses, MCP on stdio → {@code
 * cortex mcp} → the agent server's webhook → the hub → a {@code cortex client} device on loopback →
 * {@code bash -lc true}, against running the same thing locally in the same run ({@code /bin/true},
 * and {@code bash -lc true} as the device runs it), calls interleaved. Also {@code remote_read} of
 * a small file: the same path without a process.
 */
public final class RemoteBench {
  static final String USAGE =
      "usage: bench/remote [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured calls of each kind (default 300)\n"
          + "  --warmup W    unmeasured calls of each kind first (default 100)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final String TOKEN = "bench-shared-token-0123456789";

  private RemoteBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> flags;
    int calls;
    int warmup;
    try {
      flags = Flags.parse(args, Set.of("--calls", "--warmup", "--launcher"));
      calls = Flags.count(flags, "--calls", 300, 1);
      warmup = Flags.count(flags, "--warmup", 100, 0);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        System.err.println("bench: " + e.getMessage());
      }
      System.err.println(USAGE);
      System.exit(e.getMessage().isEmpty() ? 0 : 2);
      return;
    }
    Path launcher = Path.of(flags.getOrDefault("--launcher", "bin/cortex")).toAbsolutePath();
    Path work = Files.createTempDirectory("cortex-remote-bench");
    List<Process> children = new ArrayList<>();
    try {
      System.out.print(new RemoteBench().run(launcher, work, calls, warmup, children));
    } finally {
      children.forEach(Process::destroyForcibly);
      Scratch.delete(work, System.err);
    }
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    Path serverHome = Files.createDirectories(work.resolve("server"));
    Path deviceHome = Files.createDirectories(work.resolve("device"));
    Files.writeString(
        serverHome.resolve("machines.json"), "{\"machines\":{\"bench\":{\"platform\":\"linux\"}}}");
    Path small = Files.writeString(work.resolve("small.txt"), "a small file\n");
    progress("starting the agent server and a device ...");
    children.add(
        start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            Map.of("CORTEX_HOME", serverHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            work.resolve("server.log")));
    Path serverFile = serverHome.resolve("data").resolve("server.json");
    await(() -> Files.isRegularFile(serverFile), "the agent server");
    JsonNode self = StdioClient.MAPPER.readTree(Files.readString(serverFile));
    int webhook = self.path("webhook_port").asInt();
    children.add(
        start(
            List.of(
                launcher.toString(),
                "client",
                "--server",
                "ws://127.0.0.1:" + self.path("hub_port").asInt(),
                "--name",
                "bench"),
            Map.of("CORTEX_HOME", deviceHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            work.resolve("client.log")));
    String token = Files.readString(serverHome.resolve("config").resolve("webhook-token")).strip();
    await(() -> online(webhook, token), "the device");
    Server mcp =
        new Server(
            "cortex",
            List.of(launcher.toString(), "mcp", "--bundles", "core"),
            "remote_bash",
            Map.of(),
            List.of());
    try (StdioClient client =
        StdioClient.spawn(mcp, Map.of("CORTEX_HOME", serverHome.toString()))) {
      client.initialize(LIMIT);
      client.notify("notifications/initialized");
      ObjectNode bash = arguments("remote_bash", "command", "true");
      ObjectNode read = arguments("remote_read", "file_path", small.toString());
      progress("warming up: " + warmup + " calls of each kind ...");
      for (int i = 0; i < warmup; i++) {
        call(client, bash);
        call(client, read);
        exec(List.of("/bin/true"));
        exec(List.of("bash", "-lc", "true"));
      }
      progress("measuring: " + calls + " calls of each kind, interleaved ...");
      long[] remote = new long[calls];
      long[] remoteRead = new long[calls];
      long[] local = new long[calls];
      long[] localBash = new long[calls];
      for (int i = 0; i < calls; i++) {
        remote[i] = call(client, bash);
        remoteRead[i] = call(client, read);
        local[i] = exec(List.of("/bin/true"));
        localBash[i] = exec(List.of("bash", "-lc", "true"));
      }
      return report(
          calls,
          warmup,
          Stats.of(remote),
          Stats.of(remoteRead),
          Stats.of(local),
          Stats.of(localBash));
    }
  }

  private static ObjectNode arguments(String tool, String key, String value) {
    ObjectNode params = StdioClient.MAPPER.createObjectNode().put("name", tool);
    params.putObject("arguments").put("device", "bench").put(key, value);
    return params;
  }

  private static long call(StdioClient client, ObjectNode params) throws IOException {
    StdioClient.Sent sent = client.send("tools/call", params);
    StdioClient.Reply reply = client.await(sent, LIMIT);
    if (reply.failed()) {
      throw new IOException("the call failed: " + reply.message());
    }
    return reply.receivedNanos() - sent.sentNanos();
  }

  private static long exec(List<String> command) throws IOException, InterruptedException {
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getInputStream().readAllBytes();
    process.waitFor();
    return System.nanoTime() - start;
  }

  private static Process start(List<String> command, Map<String, String> env, Path log)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    return builder.start();
  }

  private static boolean online(int port, String token) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port + "/webhook/devices"))
                      .header("x-cortex-token", token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return response.body().contains("\"online\":true");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private interface Check {
    boolean done() throws IOException;
  }

  private static void await(Check check, String what) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (!check.done()) {
      if (System.nanoTime() > deadline) {
        throw new IOException(what + " did not come up within 5 minutes");
      }
      Thread.sleep(50);
    }
  }

  static String report(int calls, int warmup, Stats remote, Stats read, Stats local, Stats bash) {
    StringBuilder out = new StringBuilder();
    out.append("# remote_bash true through MCP, webhook, hub and device, against a local exec\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d measured calls of each kind after %d warm-up calls, interleaved.%n%n",
            calls,
            warmup));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    row(out, "remote_bash `true` (device runs bash -lc true)", remote);
    row(out, "remote_read of a 13-byte file (no process)", read);
    row(out, "local exec /bin/true", local);
    row(out, "local exec bash -lc true", bash);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatios of medians: remote_bash / local /bin/true = %.2f; remote_bash / local bash -lc"
                + " true = %.2f. Added by the remote path over the same local exec (p50): %.2f ms.%n",
            (double) remote.p50() / local.p50(),
            (double) remote.p50() / bash.p50(),
            (remote.p50() - bash.p50()) / 1e6));
    return out.toString();
  }

  private static void row(StringBuilder out, String what, Stats stats) {
    out.append(
        String.format(
            Locale.ROOT,
            "| %s | %.2f | %.2f | %.2f | %.2f | %.2f |%n",
            what,
            stats.p50() / 1e6,
            stats.p90() / 1e6,
            stats.p99() / 1e6,
            stats.max() / 1e6,
            stats.mean() / 1e6));
  }

  private static void progress(String message) {
    System.err.println("bench: " + message);
  }
}
