package dev.cortex.bench;

import dev.cortex.base.Cancellation;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.server.InProcessServers;
import dev.cortex.server.loop.InProcessTools;
import dev.cortex.server.loop.ToolSession;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures what a tool call costs the {@code api} backend's loop: {@code current_time} through the
 * session's bundled MCP server built inside this process (the in-memory SDK pair the loop uses),
 * against the same call through {@code cortex mcp} as a stdio child (the path of the {@code
 * command} and {@code claude} backends), both with the same composition ({@code core,ext}) and the
 * same home, calls interleaved.
 */
public final class LoopBench {
  static final String USAGE =
      "usage: tools/bench/loop [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured calls of each kind (default 500)\n"
          + "  --warmup W    unmeasured calls of each kind first (default 100)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  private static final Duration LIMIT = Duration.ofSeconds(30);

  private LoopBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(args, USAGE, 500, 100, "cortex-loop-bench", new LoopBench()::run);
    System.exit(0);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    Path home = Files.createDirectories(work.resolve("home"));
    Map<String, String> session = new HashMap<>(System.getenv());
    session.put("CORTEX_HOME", home.toString());
    session.put("CORTEX_MCP_BUNDLES", "core,ext");
    session.put("CORTEX_SESSION_ID", "ses-0123456789abcdef");

    AgentServerBench.progress("building the in-process server ...");
    Io io =
        new Io(
            InputStream.nullInputStream(),
            new PrintStream(OutputStream.nullOutputStream(), true),
            System.err,
            Map.copyOf(session));
    ToolSession inProcess = InProcessTools.open(new InProcessServers(new Services(io)), session);

    AgentServerBench.progress("starting cortex mcp over stdio ...");
    Server server =
        new Server(
            "cortex",
            List.of(launcher.toString(), "mcp"),
            "current_time",
            Map.of("timezone", "UTC"),
            List.of());
    StdioClient stdio =
        StdioClient.spawn(
            server,
            Map.of(
                "CORTEX_HOME", home.toString(),
                "CORTEX_MCP_BUNDLES", "core,ext",
                "CORTEX_SESSION_ID", "ses-0123456789abcdef"));
    children.add(stdio.process());
    stdio.initialize(Duration.ofSeconds(120));
    stdio.notify("notifications/initialized");

    JsonNode arguments = StdioClient.MAPPER.createObjectNode().put("timezone", "UTC");
    ObjectNode params = StdioClient.MAPPER.createObjectNode().put("name", "current_time");
    params.set("arguments", arguments);
    long[] local = new long[calls];
    long[] child = new long[calls];
    AgentServerBench.progress(warmup + " warm-up and " + calls + " measured calls of each ...");
    for (int i = -warmup; i < calls; i++) {
      long start = System.nanoTime();
      ToolSession.Answer answer = inProcess.call("current_time", arguments, Cancellation.NONE);
      long took = System.nanoTime() - start;
      if (answer.error()) {
        throw new IllegalStateException("current_time failed in-process: " + answer.text());
      }
      StdioClient.Sent sent = stdio.send("tools/call", params);
      StdioClient.Reply reply = stdio.await(sent, LIMIT);
      if (reply.failed()) {
        throw new IllegalStateException("current_time failed over stdio: " + reply.message());
      }
      if (i >= 0) {
        local[i] = took;
        child[i] = reply.receivedNanos() - sent.sentNanos();
      }
    }
    inProcess.close();
    stdio.close();
    return report(calls, warmup, Stats.of(local), Stats.of(child));
  }

  static String report(int calls, int warmup, Stats inProcess, Stats stdio) {
    StringBuilder out = new StringBuilder();
    out.append("# A tool call of the api backend's loop, against the stdio child's\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d measured calls of current_time each after %d warm-up calls, interleaved;"
                + " composition core,ext, one home.%n%n",
            calls,
            warmup));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "in-process (the api loop's in-memory SDK pair)", inProcess);
    AgentServerBench.row(out, "cortex mcp as a stdio child (command and claude backends)", stdio);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatio of medians: in-process / stdio = %.2f. In-process over stdio (p50): %+.3f ms;"
                + " (p99): %+.3f ms.%n",
            (double) inProcess.p50() / stdio.p50(),
            (inProcess.p50() - stdio.p50()) / 1e6,
            (inProcess.p99() - stdio.p99()) / 1e6));
    return out.toString();
  }
}
