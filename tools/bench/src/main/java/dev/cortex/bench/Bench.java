package dev.cortex.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures {@code cortex mcp} against the reference MCP server over stdio, in one run on one
 * machine: process start (spawn to {@code initialize} result, alternating servers) and sequential
 * {@code tools/call} round trips (one process per server, calls interleaved between them).
 */
public final class Bench {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
  private static final int START_ATTEMPTS = 5;

  private final Options options;
  private final List<Server> servers;
  private final Observations[] seen = {new Observations(), new Observations()};

  private Bench(Options options) {
    this.options = options;
    this.servers =
        List.of(
            Server.cortex(options.cortex()), Server.reference(options.node(), options.reference()));
  }

  public static void main(String[] args) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = e.getMessage().isEmpty();
      if (!help) {
        System.err.println("bench: " + e.getMessage());
      }
      System.err.println(Options.USAGE);
      System.exit(help ? 0 : 2);
      return;
    }
    try {
      Results results = new Bench(options).run();
      Report.print(results, System.out);
      if (options.json() != null) {
        Files.writeString(options.json(), Report.json(results) + "\n");
        progress("JSON written to " + options.json().toAbsolutePath());
      }
    } catch (IOException e) {
      System.err.println("bench: " + e.getMessage());
      System.exit(1);
    }
  }

  private Results run() throws IOException {
    Instant at = Instant.now();
    String loadBefore = Environment.loadAverage();
    progress("priming: one unmeasured start per server");
    List<ServerRuntime> runtimes = new ArrayList<>();
    for (int s = 0; s < servers.size(); s++) {
      runtimes.add(session(s, Bench::prime));
    }
    long[][] starts = measureStarts();
    long[][] calls = measureRoundTrips();
    List<Results.ServerResult> results = new ArrayList<>();
    for (int s = 0; s < servers.size(); s++) {
      results.add(
          new Results.ServerResult(servers.get(s), runtimes.get(s), starts[s], calls[s], seen[s]));
    }
    String load = "at start " + loadBefore + ", at end " + Environment.loadAverage();
    return new Results(at, options, Environment.client(), Environment.host(), load, results);
  }

  private static ServerRuntime prime(StdioClient client) throws IOException {
    client.initialize(START_TIMEOUT);
    return ServerRuntime.of(client.process());
  }

  /** Starts each server {@code repeats} times, alternating which goes first. */
  private long[][] measureStarts() throws IOException {
    long[][] nanos = new long[servers.size()][options.repeats()];
    for (int r = 0; r < options.repeats(); r++) {
      progress("start " + (r + 1) + "/" + options.repeats());
      for (int s : order(r)) {
        nanos[s][r] = cleanStart(s);
      }
    }
    return nanos;
  }

  /**
   * Times one start of server {@code s}. A start in which the launcher did one-off set-up (such as
   * rebuilding cortex because its sources changed) is discarded and repeated, a few times at most.
   */
  private long cleanStart(int s) throws IOException {
    for (int attempt = 1; ; attempt++) {
      Timed start =
          session(
              s,
              client ->
                  new Timed(
                      client.initialize(START_TIMEOUT).receivedNanos() - client.spawnNanos(),
                      client));
      Optional<String> setup = servers.get(s).setupLine(start.client().stderrHead());
      if (setup.isEmpty()) {
        return start.nanos();
      }
      seen[s].setupStart(setup.get(), attempt < START_ATTEMPTS);
      if (attempt == START_ATTEMPTS) {
        return start.nanos();
      }
    }
  }

  /** One process per server, both alive; the calls alternate between them, one at a time. */
  private long[][] measureRoundTrips() throws IOException {
    progress(options.calls() + " round trips per server");
    return session(0, cortex -> session(1, reference -> roundTrips(List.of(cortex, reference))));
  }

  private long[][] roundTrips(List<StdioClient> clients) throws IOException {
    List<ObjectNode> params = new ArrayList<>();
    for (int s = 0; s < clients.size(); s++) {
      clients.get(s).initialize(START_TIMEOUT);
      clients.get(s).notify("notifications/initialized");
      params.add(callParams(servers.get(s)));
    }
    long[][] nanos = new long[clients.size()][options.calls()];
    for (int i = 0; i < options.calls(); i++) {
      for (int s : order(i)) {
        StdioClient.Sent sent = clients.get(s).send("tools/call", params.get(s));
        StdioClient.Reply reply = clients.get(s).await(sent, CALL_TIMEOUT);
        nanos[s][i] = reply.receivedNanos() - sent.sentNanos();
        if (reply.failed()) {
          seen[s].failedCall(reply.message());
        }
      }
    }
    return nanos;
  }

  private static ObjectNode callParams(Server server) {
    ObjectNode params = StdioClient.MAPPER.createObjectNode().put("name", server.tool());
    ObjectNode arguments = params.putObject("arguments");
    server.arguments().forEach(arguments::put);
    return params;
  }

  /** Cortex first on even rounds, the reference first on odd ones. */
  private static int[] order(int round) {
    return round % 2 == 0 ? new int[] {0, 1} : new int[] {1, 0};
  }

  /** Runs a body against a fresh process of server {@code s}, then closes it and keeps notes. */
  private <T> T session(int s, Session<T> body) throws IOException {
    StdioClient client = StdioClient.spawn(servers.get(s));
    try {
      return body.run(client);
    } finally {
      client.close();
      seen[s].absorb(client);
    }
  }

  private static void progress(String message) {
    System.err.println("bench: " + message);
  }

  /** A duration measured on a client that is closed by now. */
  private record Timed(long nanos, StdioClient client) {}

  @FunctionalInterface
  private interface Session<T> {
    T run(StdioClient client) throws IOException;
  }
}
