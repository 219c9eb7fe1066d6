package dev.cortex.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
      "usage: tools/bench/remote [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured calls of each kind (default 300)\n"
          + "  --warmup W    unmeasured calls of each kind first (default 100)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final String TOKEN = "bench-shared-token-0123456789";

  private RemoteBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(args, USAGE, 300, 100, "cortex-remote-bench", new RemoteBench()::run);
    System.exit(0);
  }

  /** The agent server, its three devices and an MCP client of {@code cortex mcp}, all started. */
  private record Stack(StdioClient client, int webhook, String token) {}

  private static Stack stack(
      Path launcher, Path work, String name, Path user, List<Process> children, Path trace)
      throws Exception {
    Path root = Files.createDirectories(work.resolve(name));
    Path serverHome = Files.createDirectories(root.resolve("server"));
    Files.writeString(
        serverHome.resolve("machines.json"),
        "{\"machines\":{\"bench\":{\"platform\":\"linux\"},\"profiled\":{\"platform\":\"linux\"},"
            + "\"perline\":{\"platform\":\"linux\"}}}");
    Map<String, String> traced =
        trace == null ? Map.of() : Map.of("CORTEX_HOP_TRACE", trace.toString());
    children.add(
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            with(traced, "CORTEX_HOME", serverHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            root.resolve("server.log")));
    Path serverFile = serverHome.resolve("data").resolve("server.json");
    AgentServerBench.await(() -> Files.isRegularFile(serverFile), "the agent server");
    JsonNode self = StdioClient.MAPPER.readTree(Files.readString(serverFile));
    int webhook = self.path("webhook_port").asInt();
    String hub = "ws://127.0.0.1:" + self.path("hub_port").asInt();
    for (String device : List.of("bench", "profiled", "perline")) {
      List<String> command =
          new java.util.ArrayList<>(
              List.of(launcher.toString(), "client", "--server", hub, "--name", device));
      if (device.equals("perline")) {
        command.add("--login-shell-per-command");
      }
      Map<String, String> env =
          with(
              traced,
              "CORTEX_HOME",
              Files.createDirectories(root.resolve(device)).toString(),
              "CORTEX_CLIENT_TOKEN",
              TOKEN);
      if (!device.equals("bench")) {
        env = with(env, "HOME", user.toString());
      }
      children.add(AgentServerBench.start(command, env, root.resolve(device + ".log")));
    }
    String token = Files.readString(serverHome.resolve("config").resolve("webhook-token")).strip();
    AgentServerBench.await(() -> online(webhook, token, 3), "the devices");
    Server mcp =
        new Server(
            "cortex",
            List.of(launcher.toString(), "mcp", "--bundles", "core"),
            "remote_bash",
            Map.of(),
            List.of());
    StdioClient client = StdioClient.spawn(mcp, with(traced, "CORTEX_HOME", serverHome.toString()));
    client.initialize(LIMIT);
    client.notify("notifications/initialized");
    return new Stack(client, webhook, token);
  }

  private static Map<String, String> with(Map<String, String> base, String... pairs) {
    Map<String, String> out = new java.util.HashMap<>(base);
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], pairs[i + 1]);
    }
    return Map.copyOf(out);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    // A user whose login profile is heavy (a version manager's init takes about this long).
    Path user = Files.createDirectories(work.resolve("user"));
    Files.writeString(user.resolve(".bash_profile"), "sleep 0.1\nexport FROM_PROFILE=1\n");
    Path small = Files.writeString(work.resolve("small.txt"), "a small file\n");
    AgentServerBench.progress("starting the agent server and three devices ...");
    Stack stack = stack(launcher, work, "plain", user, children, null);
    String report;
    try (StdioClient client = stack.client();
        Webhook webhook = new Webhook(stack.webhook(), stack.token())) {
      ObjectNode bash = arguments("remote_bash", "command", "true");
      ObjectNode profiled = arguments("remote_bash", "command", "true");
      ((ObjectNode) profiled.path("arguments")).put("device", "profiled");
      ObjectNode perline = arguments("remote_bash", "command", "true");
      ((ObjectNode) perline.path("arguments")).put("device", "perline");
      Map<String, String> heavy = Map.of("HOME", user.toString());
      ObjectNode read = arguments("remote_read", "file_path", small.toString());
      String postBash = webhook.command("bash", "{\"command\":\"true\"}");
      String postRead =
          webhook.command(
              "read",
              "{\"file_path\":" + StdioClient.MAPPER.writeValueAsString(small.toString()) + "}");
      AgentServerBench.progress("warming up: " + warmup + " calls of each kind ...");
      for (int i = 0; i < warmup; i++) {
        call(client, bash);
        call(client, read);
        webhook.post(postBash);
        webhook.post(postRead);
        exec(List.of("/bin/true"));
        exec(List.of("bash", "-lc", "true"));
        call(client, profiled);
        exec(List.of("bash", "-c", "true"));
        processes();
      }
      // The per-command device pays the profile every call: fewer warm-ups of it.
      for (int i = 0; i < Math.min(warmup, 10); i++) {
        call(client, perline);
        exec(List.of("bash", "-lc", "true"), heavy);
      }
      AgentServerBench.progress("measuring: " + calls + " calls of each kind, interleaved ...");
      long[] remote = new long[calls];
      long[] remoteRead = new long[calls];
      long[] posted = new long[calls];
      long[] postedRead = new long[calls];
      long[] local = new long[calls];
      long[] localBash = new long[calls];
      long[] remoteProfiled = new long[calls];
      long[] plainBash = new long[calls];
      long[] moduleBash = new long[calls];
      int slow = Math.min(calls, 100);
      long[] remotePerLine = new long[slow];
      long[] heavyLogin = new long[slow];
      for (int i = 0; i < calls; i++) {
        remote[i] = call(client, bash);
        remoteRead[i] = call(client, read);
        posted[i] = webhook.post(postBash);
        postedRead[i] = webhook.post(postRead);
        local[i] = exec(List.of("/bin/true"));
        localBash[i] = exec(List.of("bash", "-lc", "true"));
        remoteProfiled[i] = call(client, profiled);
        plainBash[i] = exec(List.of("bash", "-c", "true"));
        moduleBash[i] = processes();
        if (i < slow) {
          remotePerLine[i] = call(client, perline);
          heavyLogin[i] = exec(List.of("bash", "-lc", "true"), heavy);
        }
      }
      report =
          report(
                  calls,
                  warmup,
                  Stats.of(remote),
                  Stats.of(remoteRead),
                  Stats.of(local),
                  Stats.of(localBash))
              + paths(
                  Stats.of(remoteProfiled),
                  Stats.of(posted),
                  Stats.of(postedRead),
                  Stats.of(plainBash),
                  Stats.of(moduleBash),
                  Stats.of(remoteRead))
              + profiles(
                  slow,
                  Stats.of(remoteProfiled),
                  Stats.of(plainBash),
                  Stats.of(remotePerLine),
                  Stats.of(heavyLogin));
    }
    for (Process child : children) {
      child.destroy();
    }
    return report + trace(launcher, work, user, small, Math.min(calls, 100), children);
  }

  /**
   * The hop trace: a second agent server, devices and MCP server with {@code CORTEX_HOP_TRACE} on
   * (its marks cost a write each, so the figures above are measured without it), {@code calls}
   * traced calls of remote_bash and remote_read each after a few unmeasured ones, and the median of
   * each hop.
   */
  private static String trace(
      Path launcher, Path work, Path user, Path small, int calls, List<Process> children)
      throws Exception {
    Path file = work.resolve("hops.log");
    AgentServerBench.progress("tracing " + calls + " calls of each kind hop by hop ...");
    Stack stack = stack(launcher, work, "traced", user, children, file);
    ObjectNode bash = arguments("remote_bash", "command", "true");
    ObjectNode read = arguments("remote_read", "file_path", small.toString());
    HopReport bashHops = new HopReport("remote_bash `true`");
    HopReport readHops = new HopReport("remote_read of a 13-byte file");
    try (StdioClient client = stack.client()) {
      for (int i = 0; i < 20; i++) {
        call(client, bash);
        call(client, read);
      }
      for (int i = 0; i < calls; i++) {
        bashHops.call(client, bash);
        readHops.call(client, read);
      }
    }
    List<String> lines = Files.readAllLines(file);
    return "\n# Where a call's time goes (CORTEX_HOP_TRACE, "
        + calls
        + " traced calls of each; medians of each hop, ms)\n\n"
        + bashHops.render(lines)
        + "\n"
        + readHops.render(lines);
  }

  /** A local run of {@code bash -c true} through the process module, as a device starts it. */
  private static long processes() throws IOException, InterruptedException {
    long start = System.nanoTime();
    dev.cortex.process.RunningProcess process =
        dev.cortex.process.Processes.start(
            dev.cortex.process.ProcessSpec.builder(
                    List.of("bash", "-c", "exec 2>&1\ntrue"), System.getenv())
                .timeout(Duration.ofSeconds(60))
                .capture(1 << 19, 1 << 19)
                .build(),
            (stream, bytes, offset, length) -> {});
    process.await();
    return System.nanoTime() - start;
  }

  /** Straight to the webhook, as {@code cortex mcp} posts: one kept-alive HTTP/1.1 connection. */
  private static final class Webhook implements AutoCloseable {
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final int port;
    private final String token;
    private long next;

    Webhook(int port, String token) {
      this.port = port;
      this.token = token;
    }

    /** A remote-command body with {@code %ID%} where each post's id goes. */
    String command(String action, String params) {
      return "{\"command_id\":\"%ID%\",\"device\":\"bench\",\"action\":\""
          + action
          + "\",\"params\":"
          + params
          + ",\"timeout_millis\":60000}";
    }

    long post(String body) throws IOException, InterruptedException {
      String id = "bench-post-" + next++;
      long start = System.nanoTime();
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/webhook/remote-command"))
                  .header("x-cortex-token", token)
                  .header("x-cortex-protocol", "1")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body.replace("%ID%", id)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - start;
      if (response.statusCode() != 200 || !response.body().contains("\"result\"")) {
        throw new IOException("the post failed: " + response.statusCode() + " " + response.body());
      }
      return took;
    }

    @Override
    public void close() {
      // java.net.http.HttpClient is closeable from Java 21 only; its threads are daemons.
    }
  }

  /** The rows comparing the paths: webhook against MCP, the process module against a plain exec. */
  static String paths(
      Stats profiled, Stats posted, Stats postedRead, Stats plain, Stats module, Stats read) {
    StringBuilder out = new StringBuilder();
    out.append("\n# The same commands by other paths, and the references they are held to\n\n");
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(
        out, "remote_bash `true` through MCP (a device user with a profile)", profiled);
    AgentServerBench.row(out, "the same command posted straight to the webhook", posted);
    AgentServerBench.row(out, "remote_read of 13 bytes posted straight to the webhook", postedRead);
    AgentServerBench.row(out, "local exec bash -c true (ProcessBuilder)", plain);
    AgentServerBench.row(out, "local bash -c true through the process module (own group)", module);
    out.append(
        String.format(
            Locale.ROOT,
            "%nOver local bash -c true: remote_bash through MCP +%.2f ms p50, +%.2f ms p99"
                + " (goal +2 / +5); straight to the webhook +%.2f ms p50. remote_read: %.2f ms p50"
                + " through MCP (goal 3), %.2f ms p50 to the webhook (goal 1.5).%n",
            (profiled.p50() - plain.p50()) / 1e6,
            (profiled.p99() - plain.p99()) / 1e6,
            (posted.p50() - plain.p50()) / 1e6,
            read.p50() / 1e6,
            postedRead.p50() / 1e6));
    return out.toString();
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
    return exec(command, Map.of());
  }

  private static long exec(List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    long start = System.nanoTime();
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getInputStream().readAllBytes();
    process.waitFor();
    return System.nanoTime() - start;
  }

  private static boolean online(int port, String token, int devices) {
    try {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + port + "/webhook/devices"))
                      .header("x-cortex-token", token)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return response.body().split("\"online\":true", -1).length - 1 >= devices;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The login profile's rows: a device user whose profile takes 100 ms. */
  static String profiles(
      int slowCalls, Stats resolved, Stats plain, Stats perCommand, Stats heavyLogin) {
    StringBuilder out = new StringBuilder();
    out.append(
        "\n# A device user whose login profile takes 100 ms (sleep 0.1 in ~/.bash_profile)\n\n");
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "remote_bash `true`, login environment resolved once", resolved);
    AgentServerBench.row(out, "local exec bash -c true", plain);
    AgentServerBench.row(
        out, "remote_bash `true`, --login-shell-per-command (" + slowCalls + " calls)", perCommand);
    AgentServerBench.row(
        out, "local exec bash -lc true with that profile (" + slowCalls + " calls)", heavyLogin);
    out.append(
        String.format(
            Locale.ROOT,
            "%nResolved once over local bash -c true (p50): +%.2f ms, (p99): +%.2f ms;"
                + " per command over it: %.1f ms more at p50.%n",
            (resolved.p50() - plain.p50()) / 1e6,
            (resolved.p99() - plain.p99()) / 1e6,
            (perCommand.p50() - resolved.p50()) / 1e6));
    return out.toString();
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
    AgentServerBench.row(
        out,
        "remote_bash `true` (the device user's own HOME, login environment resolved once)",
        remote);
    AgentServerBench.row(out, "remote_read of a 13-byte file (no process)", read);
    AgentServerBench.row(out, "local exec /bin/true", local);
    AgentServerBench.row(out, "local exec bash -lc true", bash);
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
}
