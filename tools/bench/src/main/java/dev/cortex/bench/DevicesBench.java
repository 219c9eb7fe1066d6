package dev.cortex.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

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
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * The agent server under many devices: a real {@code cortex server} and N real {@code cortex
 * client} devices on loopback (through {@code bin/cortex}, on the shared token), then C commands
 * ({@code bash true}) posted straight to the webhook's remote-command route, P at once per device;
 * every answer checked, latencies as p50/p99, and the server process's threads and resident memory
 * before, at the peak of the load, after it, and (with {@code --idle-minutes}) while the devices
 * stay connected and idle.
 */
public final class DevicesBench {
  static final String USAGE =
      "usage: tools/bench/devices [--devices N] [--parallel P] [--commands C] [--idle-minutes M]\n"
          + "  --devices N       devices (default 64, the hub's default cap)\n"
          + "  --parallel P      commands at once per device (default 4)\n"
          + "  --commands C      commands in all (default 1000)\n"
          + "  --idle-minutes M  then hold the devices idle for M minutes, sampling (default 0)\n"
          + "  --device-java-opts O  CORTEX_JAVA_OPTS of the devices' JVMs (e.g. a small heap,\n"
          + "                    so that hundreds fit in memory; the server keeps its own)\n"
          + "  --launcher P      bin/cortex of this checkout";
  private static final String TOKEN = "bench-devices-token-0123456789";
  private static final AtomicInteger SHOWN = new AtomicInteger();

  private DevicesBench() {}

  public static void main(String[] args) throws Exception {
    int devices = 64;
    int parallel = 4;
    int commands = 1000;
    double idle = 0;
    String deviceOpts = null;
    Path launcher = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--devices" -> devices = Integer.parseInt(args[++i]);
        case "--parallel" -> parallel = Integer.parseInt(args[++i]);
        case "--commands" -> commands = Integer.parseInt(args[++i]);
        case "--idle-minutes" -> idle = Double.parseDouble(args[++i]);
        case "--launcher" -> launcher = Path.of(args[++i]);
        case "--device-java-opts" -> deviceOpts = args[++i];
        default -> {
          System.err.println(USAGE);
          System.exit(2);
        }
      }
    }
    if (launcher == null) {
      System.err.println(USAGE);
      System.exit(2);
    }
    Path work = Files.createTempDirectory("cortex-devices-bench");
    List<Process> children = new ArrayList<>();
    try {
      System.out.println(
          run(launcher, work, devices, parallel, commands, idle, deviceOpts, children));
    } finally {
      for (Process child : children) {
        child.destroy();
      }
      for (Process child : children) {
        child.waitFor();
      }
    }
    System.exit(0);
  }

  /** Threads and resident memory (KiB) of a process, from /proc. */
  record Usage(int threads, long rssKib) {
    static Usage of(long pid) throws IOException {
      int threads = 0;
      long rss = 0;
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("Threads:")) {
          threads = Integer.parseInt(line.substring(8).strip());
        } else if (line.startsWith("VmRSS:")) {
          rss = Long.parseLong(line.substring(6).replace("kB", "").strip());
        }
      }
      return new Usage(threads, rss);
    }

    String text() {
      return String.format(Locale.ROOT, "%d threads, %.1f MiB resident", threads, rssKib / 1024.0);
    }
  }

  private static Map<String, String> deviceEnv(Path home, String javaOpts) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("CORTEX_HOME", home.toString());
    env.put("CORTEX_CLIENT_TOKEN", TOKEN);
    if (javaOpts != null && !javaOpts.isBlank()) {
      env.put("CORTEX_JAVA_OPTS", javaOpts);
    }
    return env;
  }

  /**
   * The server's live heap in KiB: what is left used after a full collection ({@code jcmd PID
   * GC.run}, then {@code GC.heap_info}), so that garbage not yet collected does not show as growth;
   * -1 when jcmd cannot tell.
   */
  static long liveHeapKib(long pid) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      jcmd(jcmd, pid, "GC.run");
      String info = jcmd(jcmd, pid, "GC.heap_info");
      java.util.regex.Matcher used = java.util.regex.Pattern.compile("used (\\d+)K").matcher(info);
      return used.find() ? Long.parseLong(used.group(1)) : -1;
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String jcmd(Path jcmd, long pid, String command)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), command)
            .redirectErrorStream(true)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    process.waitFor();
    return out;
  }

  static String run(
      Path launcher,
      Path work,
      int devices,
      int parallel,
      int commands,
      double idleMinutes,
      String deviceOpts,
      List<Process> children)
      throws Exception {
    Path serverHome = Files.createDirectories(work.resolve("server"));
    StringBuilder machines = new StringBuilder("{\"machines\":{");
    for (int d = 0; d < devices; d++) {
      machines
          .append(d == 0 ? "" : ",")
          .append("\"dev")
          .append(d)
          .append("\":{\"platform\":\"linux\"}");
    }
    Files.writeString(serverHome.resolve("machines.json"), machines.append("}}").toString());
    // Room for every device and every command at once (the defaults are 64 and 128).
    Files.createDirectories(serverHome.resolve("config"));
    Files.writeString(
        serverHome.resolve("config").resolve("cortex.toml"),
        "[devices]\nmax_devices = "
            + Math.max(64, devices)
            + "\nmax_commands = "
            + Math.max(128, devices * parallel)
            + "\n");
    AgentServerBench.progress("starting the agent server ...");
    Process server =
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            Map.of("CORTEX_HOME", serverHome.toString(), "CORTEX_CLIENT_TOKEN", TOKEN),
            work.resolve("server.log"));
    children.add(server);
    Path serverFile = serverHome.resolve("data").resolve("server.json");
    AgentServerBench.await(() -> Files.isRegularFile(serverFile), "the agent server");
    JsonNode self = StdioClient.MAPPER.readTree(Files.readString(serverFile));
    int webhook = self.path("webhook_port").asInt();
    String token = Files.readString(serverHome.resolve("config").resolve("webhook-token")).strip();
    Usage before = Usage.of(server.pid());

    AgentServerBench.progress("starting " + devices + " devices ...");
    for (int d = 0; d < devices; d++) {
      children.add(
          AgentServerBench.start(
              List.of(
                  launcher.toString(),
                  "client",
                  "--server",
                  "ws://127.0.0.1:" + self.path("hub_port").asInt(),
                  "--name",
                  "dev" + d),
              deviceEnv(Files.createDirectories(work.resolve("dev" + d)), deviceOpts),
              work.resolve("dev" + d + ".log")));
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    AgentServerBench.await(() -> online(http, webhook, token) >= devices, "the devices");
    Usage connected = Usage.of(server.pid());

    AgentServerBench.progress(
        "running " + commands + " commands, " + parallel + " at once per device ...");
    ExecutorService pool = Executors.newFixedThreadPool(devices * parallel);
    AtomicInteger next = new AtomicInteger();
    long[] latencies = new long[commands];
    AtomicInteger failed = new AtomicInteger();
    List<Future<?>> running = new ArrayList<>();
    long start = System.nanoTime();
    for (int worker = 0; worker < devices * parallel; worker++) {
      String device = "dev" + (worker % devices);
      running.add(
          pool.submit(
              () -> {
                for (int i = next.getAndIncrement(); i < commands; i = next.getAndIncrement()) {
                  long t0 = System.nanoTime();
                  boolean ok = command(http, webhook, token, device);
                  latencies[i] = System.nanoTime() - t0;
                  if (!ok) {
                    failed.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    Usage peak = connected;
    while (running.stream().anyMatch(f -> !f.isDone())) {
      Usage now = Usage.of(server.pid());
      if (now.rssKib() > peak.rssKib() || now.threads() > peak.threads()) {
        peak =
            new Usage(
                Math.max(now.threads(), peak.threads()), Math.max(now.rssKib(), peak.rssKib()));
      }
      Thread.sleep(200);
    }
    for (Future<?> f : running) {
      f.get();
    }
    long wall = System.nanoTime() - start;
    pool.shutdown();
    Usage after = Usage.of(server.pid());
    Stats stats = Stats.of(latencies);

    StringBuilder out = new StringBuilder("# The agent server under many devices\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d devices, %d commands (`bash true` posted to %s), %d at once per device: %d answered"
                + " with exit code 0, %d not; %.1f s in all (%.0f commands/s).%n%n",
            devices,
            commands,
            "/webhook/remote-command",
            parallel,
            commands - failed.get(),
            failed.get(),
            wall / 1e9,
            commands / (wall / 1e9)));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "a command, posted → answered", stats);
    out.append("\nThe server process: before the devices ")
        .append(before.text())
        .append("; with them connected ")
        .append(connected.text())
        .append("; at the peak of the load ")
        .append(peak.text())
        .append("; after it ")
        .append(after.text())
        .append(".\n");
    if (idleMinutes > 0) {
      AgentServerBench.progress("holding the devices idle for " + idleMinutes + " minutes ...");
      long end = System.nanoTime() + (long) (idleMinutes * 60e9);
      List<String> samples = new ArrayList<>();
      List<Long> heaps = new ArrayList<>();
      heaps.add(liveHeapKib(server.pid()));
      while (System.nanoTime() < end) {
        Thread.sleep(30_000);
        Usage now = Usage.of(server.pid());
        long heap = liveHeapKib(server.pid());
        heaps.add(heap);
        samples.add(
            String.format(
                Locale.ROOT, "%d/%.1f/%.1f", now.threads(), now.rssKib() / 1024.0, heap / 1024.0));
      }
      int online = online(http, webhook, token);
      long firstHalf =
          heaps.subList(0, heaps.size() / 2).stream().mapToLong(h -> h).max().orElse(-1);
      long secondHalf =
          heaps.subList(heaps.size() / 2, heaps.size()).stream().mapToLong(h -> h).max().orElse(-1);
      out.append(
              String.format(
                  Locale.ROOT,
                  "%nIdle for %.0f min with %d of %d devices still online at the end; the server's"
                      + " live heap after a full collection: %.1f MiB at the start, %.1f MiB at"
                      + " the end; the most in the first half %.1f MiB, in the second %.1f MiB.%n",
                  idleMinutes,
                  online,
                  devices,
                  heaps.get(0) / 1024.0,
                  heaps.get(heaps.size() - 1) / 1024.0,
                  firstHalf / 1024.0,
                  secondHalf / 1024.0))
          .append("Every 30 s (threads / MiB resident / MiB live heap): ")
          .append(String.join(", ", samples))
          .append(".\n");
    }
    return out.toString();
  }

  private static boolean command(HttpClient http, int port, String token, String device) {
    String body =
        "{\"command_id\":\""
            + UUID.randomUUID()
            + "\",\"device\":\""
            + device
            + "\",\"action\":\"bash\",\"params\":{\"command\":\"true\"},\"timeout_millis\":60000}";
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/webhook/remote-command"))
                  .header("Content-Type", "application/json")
                  .header("x-cortex-token", token)
                  .header("x-cortex-protocol", "1")
                  .timeout(Duration.ofSeconds(90))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      boolean ok = response.statusCode() == 200 && response.body().contains("\"exit_code\":0");
      if (!ok && SHOWN.incrementAndGet() <= 3) {
        String text = response.body();
        AgentServerBench.progress(
            "not answered: HTTP "
                + response.statusCode()
                + " "
                + text.substring(Math.max(0, text.length() - 300)));
      }
      return ok;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static int online(HttpClient http, int port, String token) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhook/devices"))
                  .header("x-cortex-token", token)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.body().split("\"online\":true", -1).length - 1;
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }
}
