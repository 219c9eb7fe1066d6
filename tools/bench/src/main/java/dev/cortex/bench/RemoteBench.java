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

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    Path serverHome = Files.createDirectories(work.resolve("server"));
    Path deviceHome = Files.createDirectories(work.resolve("device"));
    Files.writeString(
        serverHome.resolve("machines.json"),
        "{\"machines\":{\"bench\":{\"platform\":\"linux\"},\"profiled\":{\"platform\":\"linux\"},"
            + "\"perline\":{\"platform\":\"linux\"}}}");
    // A user whose login profile is heavy (a version manager's init takes about this long).
    Path user = Files.createDirectories(work.resolve("user"));
    Files.writeString(user.resolve(".bash_profile"), "sleep 0.1\nexport FROM_PROFILE=1\n");
    Path small = Files.writeString(work.resolve("small.txt"), "a small file\n");
    AgentServerBench.progress("starting the agent server and a device ...");
    children.add(
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            Map.of("CORTEX_HOME", serverHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            work.resolve("server.log")));
    Path serverFile = serverHome.resolve("data").resolve("server.json");
    AgentServerBench.await(() -> Files.isRegularFile(serverFile), "the agent server");
    JsonNode self = StdioClient.MAPPER.readTree(Files.readString(serverFile));
    int webhook = self.path("webhook_port").asInt();
    children.add(
        AgentServerBench.start(
            List.of(
                launcher.toString(),
                "client",
                "--server",
                "ws://127.0.0.1:" + self.path("hub_port").asInt(),
                "--name",
                "bench"),
            Map.of("CORTEX_HOME", deviceHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            work.resolve("client.log")));
    for (String device : List.of("profiled", "perline")) {
      List<String> command =
          new java.util.ArrayList<>(
              List.of(
                  launcher.toString(),
                  "client",
                  "--server",
                  "ws://127.0.0.1:" + self.path("hub_port").asInt(),
                  "--name",
                  device));
      if (device.equals("perline")) {
        command.add("--login-shell-per-command");
      }
      children.add(
          AgentServerBench.start(
              command,
              Map.of(
                  "CORTEX_HOME",
                  Files.createDirectories(work.resolve(device)).toString(),
                  "CORTEX_CLIENT_TOKEN",
                  TOKEN,
                  "HOME",
                  user.toString()),
              work.resolve(device + ".log")));
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
    try (StdioClient client =
        StdioClient.spawn(mcp, Map.of("CORTEX_HOME", serverHome.toString()))) {
      client.initialize(LIMIT);
      client.notify("notifications/initialized");
      ObjectNode bash = arguments("remote_bash", "command", "true");
      ObjectNode profiled = arguments("remote_bash", "command", "true");
      ((ObjectNode) profiled.path("arguments")).put("device", "profiled");
      ObjectNode perline = arguments("remote_bash", "command", "true");
      ((ObjectNode) perline.path("arguments")).put("device", "perline");
      Map<String, String> heavy = Map.of("HOME", user.toString());
      ObjectNode read = arguments("remote_read", "file_path", small.toString());
      AgentServerBench.progress("warming up: " + warmup + " calls of each kind ...");
      for (int i = 0; i < warmup; i++) {
        call(client, bash);
        call(client, read);
        exec(List.of("/bin/true"));
        exec(List.of("bash", "-lc", "true"));
        call(client, profiled);
        exec(List.of("bash", "-c", "true"));
      }
      // The per-command device pays the profile every call: fewer warm-ups of it.
      for (int i = 0; i < Math.min(warmup, 10); i++) {
        call(client, perline);
        exec(List.of("bash", "-lc", "true"), heavy);
      }
      AgentServerBench.progress("measuring: " + calls + " calls of each kind, interleaved ...");
      long[] remote = new long[calls];
      long[] remoteRead = new long[calls];
      long[] local = new long[calls];
      long[] localBash = new long[calls];
      long[] remoteProfiled = new long[calls];
      long[] plainBash = new long[calls];
      int slow = Math.min(calls, 100);
      long[] remotePerLine = new long[slow];
      long[] heavyLogin = new long[slow];
      for (int i = 0; i < calls; i++) {
        remote[i] = call(client, bash);
        remoteRead[i] = call(client, read);
        local[i] = exec(List.of("/bin/true"));
        localBash[i] = exec(List.of("bash", "-lc", "true"));
        remoteProfiled[i] = call(client, profiled);
        plainBash[i] = exec(List.of("bash", "-c", "true"));
        if (i < slow) {
          remotePerLine[i] = call(client, perline);
          heavyLogin[i] = exec(List.of("bash", "-lc", "true"), heavy);
        }
      }
      return report(
              calls,
              warmup,
              Stats.of(remote),
              Stats.of(remoteRead),
              Stats.of(local),
              Stats.of(localBash))
          + profiles(
              slow,
              Stats.of(remoteProfiled),
              Stats.of(plainBash),
              Stats.of(remotePerLine),
              Stats.of(heavyLogin));
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
