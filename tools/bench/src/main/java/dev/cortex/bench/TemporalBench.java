package dev.cortex.bench;

import dev.cortex.base.CortexHome;
import dev.cortex.storage.Database;
import dev.cortex.workflows.WorkflowsGroup;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.run.EmbeddedEngine;
import dev.cortex.workflows.run.Engine;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunRequest;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;
import dev.cortex.workflows.run.WorkflowRef;
import dev.cortex.workflows.temporal.TemporalEngine;
import dev.cortex.workflows.temporal.TemporalSettings;
import dev.cortex.workflows.temporal.TemporalWorker;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.client.WorkflowClient;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per-step overhead of the Temporal engine next to the embedded engine's, in one run: the generated
 * workflows of {@code tools/bench/engine} (no-op {@code transform} steps) run alternately on both
 * engines over one database and one {@code CORTEX_HOME}. Temporal is the test server of {@code
 * io.temporal:temporal-testing} on loopback and one worker, both in this JVM: every step is a
 * workflow task, an activity (over gRPC) and a recording local activity. Temporal runs twice per
 * round: awaited only (a detached run, or a call without a progress token), and followed step by
 * step by a listener, as {@code run} with a progress token does.
 */
public final class TemporalBench {
  static final String USAGE =
      """
      usage: tools/bench/temporal [--repeats R] [--warmup W] [--steps N,N,...]
        --repeats R   measured runs per length, engine and variant; medians are reported (default 5)
        --warmup W    unmeasured runs before them (default 1)
        --steps N,..  workflow lengths in steps, comma-separated (default 10,100)\
      """;

  private TemporalBench() {}

  public static void main(String[] args) {
    System.exit(run(System.out, System.err, args));
  }

  /** Runs the benchmark; 0 when it ran, 1 when it failed, 2 on bad usage. */
  static int run(PrintStream out, PrintStream err, String... args) {
    int repeats;
    int warmup;
    List<Integer> lengths = new ArrayList<>();
    try {
      Map<String, String> flags = Flags.parse(args, Set.of("--repeats", "--warmup", "--steps"));
      repeats = Flags.count(flags, "--repeats", 5, 1);
      warmup = Flags.count(flags, "--warmup", 1, 0);
      for (String part : flags.getOrDefault("--steps", "10,100").split(",", -1)) {
        lengths.add(Flags.count(Map.of("--steps", part.strip()), "--steps", 0, 1));
      }
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().isEmpty()) {
        err.println("bench: " + e.getMessage());
      }
      err.println(USAGE);
      return e.getMessage().isEmpty() ? 0 : 2;
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("cortex-temporal-bench-");
      measure(out, err, dir, repeats, warmup, lengths);
      return 0;
    } catch (IOException | RuntimeException | InterruptedException e) {
      err.println("bench: failed: " + e);
      e.printStackTrace(err);
      return 1;
    } finally {
      Scratch.delete(dir, err);
    }
  }

  private static void measure(
      PrintStream out, PrintStream err, Path dir, int repeats, int warmup, List<Integer> lengths)
      throws IOException, InterruptedException {
    String loadBefore = Environment.loadAverage();
    CortexHome home = new CortexHome(dir, dir.resolve("data"));
    TestServicesStarter services = new TestServicesStarter(true, 0);
    ServerBuilder<?> builder =
        NettyServerBuilder.forAddress(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    Server server = builder.build().start();
    String address = InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
    TemporalSettings settings =
        new TemporalSettings(
            address, "default", "bench", false, null, null, null, null, Duration.ofSeconds(30));
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(address).build());
    WorkflowClient client = WorkflowClient.newInstance(stubs);
    List<String> rows = new ArrayList<>();
    try (Database database = new Database(home, List.of(WorkflowsGroup.storageArea()))) {
      RunStore store = new RunStore(() -> database);
      TraceFiles traces = new TraceFiles(home);
      ActivityEnvironment environment = new ActivityEnvironment(home, Map.of(), Clock.systemUTC());
      Engine embedded = new EmbeddedEngine(store, traces, Activities.standard(), environment);
      Engine temporal = new TemporalEngine(settings, Map.of(), store, traces, Clock.systemUTC());
      try (TemporalWorker worker =
          TemporalWorker.start(
              settings,
              Map.of(),
              store,
              traces,
              Activities.standard(),
              environment,
              TemporalWorker.Options.DEFAULTS)) {
        for (int steps : lengths) {
          for (EngineWorkflow.Variant variant : EngineWorkflow.Variant.values()) {
            EngineWorkflow workflow = EngineWorkflow.of(variant, steps);
            err.printf("bench: %s, %d rounds ...%n", workflow.name(), warmup + repeats);
            long[] onEmbedded = new long[repeats];
            long[] onTemporal = new long[repeats];
            long[] followed = new long[repeats];
            String lastTemporal = null;
            for (int round = -warmup; round < repeats; round++) {
              long[] e = new long[1];
              long[] t = new long[1];
              long[] f = new long[1];
              timedRun(embedded, workflow, RunListener.NONE, e);
              lastTemporal = timedRun(temporal, workflow, RunListener.NONE, t);
              timedRun(temporal, workflow, new RunListener() {}, f);
              if (round >= 0) {
                onEmbedded[round] = e[0];
                onTemporal[round] = t[0];
                followed[round] = f[0];
              }
            }
            int events = client.fetchHistory(lastTemporal).getEvents().size();
            double e = median(onEmbedded) / 1000.0 / steps;
            double t = median(onTemporal) / 1000.0 / steps;
            double f = median(followed) / 1000.0 / steps;
            rows.add(
                String.format(
                    "| %d | `%s` | %,.0f | %,.0f | %,.0f | %.0fx | %.1f |",
                    steps, variant.reads, e, t, f, t / e, (double) events / steps));
          }
        }
      }
    } finally {
      stubs.shutdownNow();
      server.shutdownNow();
      services.close();
    }
    out.println("# Temporal engine against the embedded engine: overhead per step");
    out.println();
    out.println("- harness: " + Environment.client());
    out.println("- flags: " + Environment.jvmFlags());
    out.println("- host: " + Environment.host());
    out.println("- home: " + Environment.fileSystem(dir));
    out.println("- load: at start " + loadBefore + ", at end " + Environment.loadAverage());
    out.println(
        "- Temporal: the temporal-testing server on "
            + address
            + " and one worker, in this JVM; "
            + repeats
            + " measured runs per row after "
            + warmup
            + " warm-up");
    out.println();
    out.println(
        "| steps | reads | embedded µs/step | temporal µs/step | temporal, followed µs/step"
            + " | temporal/embedded | history events/step |");
    out.println("|---:|---|---:|---:|---:|---:|---:|");
    rows.forEach(out::println);
  }

  /**
   * Runs {@code workflow} once with {@code listener}, puts the nanoseconds from start to the final
   * record in {@code elapsed[0]} and returns the run id.
   */
  private static String timedRun(
      Engine engine, EngineWorkflow workflow, RunListener listener, long[] elapsed)
      throws InterruptedException {
    RunRequest request =
        new RunRequest(
            workflow.manifest(),
            workflow.yaml(),
            new WorkflowRef("path", "engine-bench.yaml", "engine-bench.yaml"),
            EngineWorkflow.PARAMETERS);
    long start = System.nanoTime();
    RunRecord run = engine.start(request, listener).await();
    elapsed[0] = System.nanoTime() - start;
    if (run.status() != RunStatus.SUCCEEDED) {
      throw new IllegalStateException(
          "run " + run.runId() + " on " + engine.name() + " ended " + run.status().wire());
    }
    return run.runId();
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
  }
}
