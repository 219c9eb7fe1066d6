package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.WorkflowServer.example;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeZenity;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Workflows on Temporal, end to end with the built program: a Temporal service started in this JVM
 * (the test server of {@code io.temporal:temporal-testing}, gRPC on loopback), {@code cortex
 * worker} processes polling it, and {@code cortex mcp} and the CLI starting runs. Starters and
 * workers share one {@code CORTEX_HOME} per test.
 */
class WorkflowTemporalIT {
  static final Duration LIMIT = Duration.ofSeconds(90);

  static TemporalCluster cluster;
  static HttpServer web;
  static String base;
  static WorkerProcess worker;
  @TempDir static Path work;
  @TempDir static Path home;

  @BeforeAll
  static void start() throws Exception {
    cluster = TemporalCluster.start();
    web = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    web.createContext(
        "/health",
        exchange ->
            WorkflowExamplesIT.answer(
                exchange, 200, "{\"status\":\"green\",\"version\":\"2.4.1\"}"));
    web.createContext("/v1/messages", WorkflowExamplesIT::messages);
    web.start();
    base = "http://127.0.0.1:" + web.getAddress().getPort();
    Path bin = Files.createDirectories(work.resolve("bin"));
    Path cortex = bin.resolve("cortex");
    Files.writeString(
        cortex,
        "#!/bin/sh\nexec '"
            + CortexProcess.java()
            + "' -XX:+UseSerialGC -jar '"
            + CortexProcess.jar().toAbsolutePath()
            + "' \"$@\"\n");
    assertThat(cortex.toFile().setExecutable(true)).isTrue();
    worker = WorkerProcess.start(temporalEnv(home, "main"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (worker != null) {
      worker.close();
    }
    if (web != null) {
      web.stop(0);
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What every process of these tests gets: the home, a PATH with cortex, the model API. */
  static Map<String, String> commonEnv(Path home) {
    Map<String, String> env = new HashMap<>(CortexProcess.env(home));
    env.put(
        "PATH", work.resolve("bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("ANTHROPIC_API_KEY", WorkflowExamplesIT.API_KEY);
    env.put("CORTEX_ANTHROPIC_BASE_URL", base);
    // Runs are confirmed without asking: these tests are about the engine, not consent.
    env.put("CORTEX_ASSUME_YES", "1");
    return env;
  }

  static Map<String, String> temporalEnv(Path home, String queue) {
    Map<String, String> env = commonEnv(home);
    env.putAll(cluster.env(queue));
    return env;
  }

  /** A trace without what differs between two runs of the same workflow: ids, engine, times. */
  static JsonNode comparable(JsonNode trace, Set<String> volatileOutputs) {
    ObjectNode copy = (ObjectNode) trace.deepCopy();
    copy.remove(List.of("run_id", "engine", "started_at", "ended_at", "duration_ms", "parameters"));
    for (JsonNode step : copy.path("steps")) {
      ObjectNode fields = (ObjectNode) step;
      fields.remove(List.of("started_at", "ended_at", "duration_ms"));
      if (volatileOutputs.contains(step.path("id").asString())) {
        fields.remove("output");
      }
      for (JsonNode item : step.path("items")) {
        ((ObjectNode) item).remove("duration_ms");
      }
    }
    return copy;
  }

  /** Runs {@code workflow} to its end over MCP and returns its full trace. */
  static JsonNode fullRun(WorkflowServer server, String workflow, Map<String, Object> params) {
    JsonNode trace = server.run(workflow, params);
    return server.ok("runs_show", args("run_id", trace.path("run_id").asString(), "full", true));
  }

  @Test
  void examples_giveTheSameTracesOnBothEngines() throws Exception {
    Path embeddedHome = Files.createDirectories(work.resolve("embedded-home"));
    Path listing = Files.createDirectories(work.resolve("listing"));
    for (String file : List.of("a.txt", "b.txt", "notes.md", "Makefile")) {
      Files.writeString(listing.resolve(file), file);
    }
    try (WorkflowServer embedded = WorkflowServer.start(embeddedHome, commonEnvExtras());
        WorkflowServer temporal = WorkflowServer.start(home, temporalExtras("main"))) {
      JsonNode status = temporal.ok("status", Map.of());
      assertThat(status.path("engine").path("name").asString()).isEqualTo("temporal");
      assertThat(status.path("engine").path("reachable").asBoolean()).isTrue();
      assertThat(status.path("engine").path("address").asString()).isEqualTo(cluster.address());
      assertThat(status.path("engine").path("task_queue").asString()).isEqualTo("main");

      int examples = 0;
      for (String name :
          List.of(
              "shell-pipeline",
              "http-status",
              "sqlite-report",
              "fan-out",
              "flaky-retry",
              "slow-timeout",
              "llm-summary",
              "mcp-relay")) {
        // The time a server answered with (mcp-relay) or a response's Date header (http-status).
        Set<String> volatileOutputs =
            switch (name) {
              case "mcp-relay" -> Set.of("now", "relay");
              case "http-status" -> Set.of("fetch");
              default -> Set.of();
            };
        JsonNode onEmbedded = fullRun(embedded, example(name), params(name, "embedded"));
        JsonNode onTemporal = fullRun(temporal, example(name), params(name, "temporal"));

        assertThat(onTemporal.path("engine").asString()).as(name).isEqualTo("temporal");
        assertThat(onEmbedded.path("engine").asString()).as(name).isEqualTo("embedded");
        assertThat(comparable(onTemporal, volatileOutputs))
            .as(name)
            .isEqualTo(comparable(onEmbedded, volatileOutputs));
        Path file = home.resolve("runs").resolve(onTemporal.path("run_id").asString() + ".json");
        assertThat(comparable(TestJson.JSON.readTree(file), Set.of()))
            .as(name)
            .isEqualTo(comparable(onTemporal, Set.of()));
        examples++;
      }
      assertThat(examples).isEqualTo(8);
      assertThat(
              temporal.ok("check", args("workflow", example("fan-out"))).path("engine").asString())
          .isEqualTo("temporal");
    }
  }

  static Map<String, String> commonEnvExtras() {
    Map<String, String> env = commonEnv(home);
    env.remove("CORTEX_HOME");
    return env;
  }

  static Map<String, String> temporalExtras(String queue) {
    Map<String, String> env = commonEnvExtras();
    env.putAll(cluster.env(queue));
    return env;
  }

  /** The example's parameters; files and directories of its own for each engine. */
  static Map<String, Object> params(String example, String engine) throws IOException {
    Path own = Files.createDirectories(work.resolve(engine + "-" + example));
    return switch (example) {
      case "shell-pipeline" -> args("dir", work.resolve("listing").toString());
      case "http-status" -> args("url", base + "/health", "field", "version");
      case "sqlite-report" -> args("db", own.resolve("orders.db").toString());
      case "flaky-retry" -> args("state_dir", own.toString());
      case "llm-summary" -> args("text", "Cortex is one program that serves MCP.", "sentences", 1);
      case "mcp-relay" -> args("timezone", "Asia/Tokyo");
      default -> args();
    };
  }

  @Test
  void aKilledWorker_isReplacedAndTheRunFinishes_afterItsStarterHasGone() throws Exception {
    Path crashHome = Files.createDirectories(work.resolve("crash-home"));
    Path marker = work.resolve("crash-marker");
    String manifest =
        WorkflowServer.manifest(
            work,
            "survives",
            """
            name: survives
            version: "1"
            capabilities: [shell]
            steps:
              - id: first
                kind: shell
                with: {argv: [echo, first]}
              - id: slow
                kind: shell
                with: {script: 'echo started >> %s; sleep 3; echo slept'}
              - id: last
                kind: transform
                with: {expression: '.steps.slow.stdout'}
            """
                .formatted(marker));
    Map<String, String> env = temporalEnv(crashHome, "crash");
    // The first worker keeps no runs in memory: a workflow task queued for a dead worker's sticky
    // queue is never handed back by the test server (a real cluster does after 5 s).
    try (WorkerProcess first = WorkerProcess.start(env, "--workflow-cache", "0")) {
      CortexProcess.Finished started = CortexProcess.run(env, "run", manifest, "--detach", "--yes");
      assertThat(started.exitCode()).as(started.stderr()).isZero();
      String runId = started.stdout().strip();
      assertThat(started.stderr()).contains("started on temporal");

      Eventually.until(
          "the slow step started on the first worker", LIMIT, () -> Files.exists(marker));
      first.kill();
      try (WorkerProcess second = WorkerProcess.start(env)) {
        Path trace = crashHome.resolve("runs").resolve(runId + ".json");
        JsonNode ended =
            await(trace, t -> !t.path("status").asString().equals("running"), "the run ended");

        assertThat(ended.path("status").asString()).isEqualTo("succeeded");
        assertThat(ended.path("engine").asString()).isEqualTo("temporal");
        assertThat(step(ended, "first").path("attempts").asInt()).isEqualTo(1);
        assertThat(step(ended, "last").path("output").asString()).isEqualTo("slept\n");
        assertThat(Files.readAllLines(marker)).containsExactly("started", "started");
        JsonNode shown = WorkflowRunControlIT.cli(env, 0, "runs", "show", runId);
        assertThat(shown.path("status").asString()).isEqualTo("succeeded");
        assertThat(second.stderr.toString()).doesNotContain("Exception");
      }
    }
  }

  @Test
  void aFailedAttempt_logsOneLineOnTheWorker_withoutAStackTrace() throws Exception {
    Path failingHome = Files.createDirectories(work.resolve("failing-home"));
    String manifest =
        WorkflowServer.manifest(
            work,
            "fails",
            """
            name: fails
            version: "1"
            capabilities: [shell]
            steps:
              - id: broken
                kind: shell
                with: {script: 'echo the disk is full >&2; exit 3'}
            """);
    Map<String, String> env = temporalEnv(failingHome, "failing");
    try (WorkerProcess own = WorkerProcess.start(env)) {
      CortexProcess.Finished run = CortexProcess.run(env, "run", manifest, "--yes", "--json");
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
      Eventually.until(
          "the worker logged the attempt",
          LIMIT,
          () -> own.stderr.toString().contains("attempt 1 failed"));

      String log = own.stderr.toString();
      assertThat(log)
          .contains("step 'broken' attempt 1 failed (exit_status): exit 3: the disk is full")
          .doesNotContain("Activity failure")
          .doesNotContain("\tat ")
          .doesNotContain("Exception");
    }
  }

  @Test
  void twoWorkers_shareATaskQueue() throws Exception {
    Path sharedHome = Files.createDirectories(work.resolve("shared-home"));
    String manifest =
        WorkflowServer.manifest(
            work,
            "fan-wide",
            """
            name: fan-wide
            version: "1"
            capabilities: [shell]
            steps:
              - id: each
                kind: shell
                for_each: '[0, 1, 2, 3]'
                concurrency: 4
                with: {script: 'sleep 1; echo $PPID'}
            """);
    Map<String, String> env = temporalEnv(sharedHome, "shared");
    try (WorkerProcess a = WorkerProcess.start(env, "--concurrency", "2");
        WorkerProcess b = WorkerProcess.start(env, "--concurrency", "2")) {
      JsonNode trace = WorkflowRunControlIT.cli(env, 0, "run", manifest, "--no-progress", "--yes");

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      Set<Long> ranOn = new HashSet<>();
      step(trace, "each")
          .path("output")
          .forEach(o -> ranOn.add(Long.parseLong(o.path("stdout").asString().strip())));
      assertThat(ranOn).containsExactlyInAnyOrder(a.pid(), b.pid());
    }
  }

  @Test
  void progressAndCancellation_overMcp_asOnTheEmbeddedEngine() throws Exception {
    Path listing = Files.createDirectories(work.resolve("progress-listing"));
    Files.writeString(listing.resolve("a.txt"), "a");
    String sleepy =
        WorkflowServer.manifest(
            work,
            "cancel-me",
            """
            name: cancel-me
            version: "1"
            capabilities: [shell]
            steps:
              - id: nap
                kind: shell
                with: {argv: [sleep, "2"]}
              - id: after
                kind: transform
                with: {expression: '"done"'}
            """);
    try (RawStdio wire = rawServer(temporalEnv(home, "main"))) {
      wire.send(
          JsonRpcLines.toolsCall(
              2,
              "run",
              "{\"workflow\":"
                  + WorkflowRunControlIT.quoted(example("shell-pipeline"))
                  + ",\"params\":{\"dir\":"
                  + WorkflowRunControlIT.quoted(listing.toString())
                  + "}}",
              "wire-1"));
      List<String> progress = new ArrayList<>();
      JsonNode message = wire.next();
      while (message.has("method")) {
        assertThat(message.path("params").path("progressToken").asString()).isEqualTo("wire-1");
        progress.add(message.path("params").path("message").asString());
        message = wire.next();
      }
      assertThat(message.path("id").asInt()).isEqualTo(2);
      assertThat(message.path("result").path("structuredContent").path("status").asString())
          .isEqualTo("succeeded");
      assertThat(progress).hasSize(4);
      assertThat(progress.get(0))
          .startsWith("plan: run ")
          .endsWith(
              " of shell-pipeline 1.0.0, 3 steps: list (shell), files (transform),"
                  + " by_extension (transform)");
      assertThat(progress.get(1)).matches("step 1/3 'list' succeeded in \\d+ ms: .+");
      assertThat(progress.get(2)).matches("step 2/3 'files' succeeded in \\d+ ms: array of 1");
      assertThat(progress.get(3))
          .matches("step 3/3 'by_extension' succeeded in \\d+ ms: array of 1");

      wire.send(
          JsonRpcLines.toolsCall(
              3, "run", "{\"workflow\":" + WorkflowRunControlIT.quoted(sleepy) + "}", "cancel-1"));
      JsonNode plan = wire.next();
      assertThat(plan.path("params").path("message").asString()).startsWith("plan: run ");
      String runId = plan.path("params").path("message").asString().split(" ")[2];
      wire.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
              + "{\"requestId\":3,\"reason\":\"the user gave up\"}}");
      List<JsonNode> seen = new ArrayList<>();
      String status = "running";
      Instant deadline = Instant.now().plus(LIMIT);
      for (int id = 100; !status.equals("succeeded"); id++) {
        assertThat(Instant.now()).as("run %s still %s", runId, status).isBefore(deadline);
        wire.send(
            JsonRpcLines.toolsCall(
                id, "runs_show", "{\"run_id\":" + WorkflowRunControlIT.quoted(runId) + "}", null));
        JsonNode answer = wire.answerTo(id, seen);
        status = answer.path("result").path("structuredContent").path("status").asString();
        if (!status.equals("succeeded")) {
          Thread.sleep(100);
        }
      }
      wire.closeInput();
      seen.addAll(wire.rest());
      assertThat(seen)
          .as("nothing answers the cancelled request")
          .noneMatch(m -> m.path("id").asInt(-1) == 3 && !m.has("method"));
      JsonNode trace = TestJson.JSON.readTree(home.resolve("runs").resolve(runId + ".json"));
      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      assertThat(step(trace, "after").path("output").asString()).isEqualTo("done");
    }
  }

  @Test
  void settings_aBadFileStopsTheCommand_andAnUnreachableClusterFailsCheck() throws Exception {
    Path badHome = Files.createDirectories(work.resolve("bad-home"));
    Path config = Files.createDirectories(badHome.resolve("config")).resolve("cortex.toml");
    Files.writeString(config, "[temporal]\naddress = \"127.0.0.1:7233\"\ntask_qeue = \"x\"\n");

    CortexProcess.Finished bad = CortexProcess.run(CortexProcess.env(badHome), "status");

    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.stderr()).contains(config.toString(), "[temporal] task_qeue", "task_queue");

    int closed;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Files.writeString(
        config,
        "[workflows]\nengine = \"temporal\"\n\n[temporal]\naddress = \"127.0.0.1:"
            + closed
            + "\"\n");
    CortexProcess.Finished unreachable =
        CortexProcess.run(CortexProcess.env(badHome), "check", example("fan-out"));

    assertThat(unreachable.exitCode()).isEqualTo(1);
    assertThat(unreachable.stderr())
        .startsWith("cortex: UNAVAILABLE: the Temporal cluster at 127.0.0.1:" + closed)
        .contains("unreachable");
  }

  /** Polls a trace file until {@code done} holds of it. */
  static JsonNode await(Path trace, Predicate<JsonNode> done, String what) throws Exception {
    JsonNode[] last = new JsonNode[1];
    Eventually.until(
        what,
        LIMIT,
        () -> {
          if (!Files.exists(trace)) {
            return false;
          }
          try {
            last[0] = TestJson.JSON.readTree(trace);
          } catch (RuntimeException e) {
            return false;
          }
          return done.test(last[0]);
        });
    return last[0];
  }

  @Test
  void cortexRunsCancel_ofARunOnTemporal_endsItsProcessesAndStartsNoLaterStep() throws Exception {
    Path marks = Files.createDirectories(work.resolve("cancel-marks"));
    String manifest =
        WorkflowServer.manifest(
            work,
            "stoppable-on-temporal",
            """
            name: stoppable-on-temporal
            version: "1"
            capabilities: [shell]
            steps:
              - id: work
                kind: shell
                with:
                  script: "sleep 300 & echo $! > %1$s/pid.tmp; mv %1$s/pid.tmp %1$s/pid; sleep 300"
              - id: after
                kind: shell
                with: {argv: [touch, "%1$s/after"]}
            """
                .formatted(marks));
    Map<String, String> env = temporalEnv(home, "main");
    CortexProcess.Finished started = CortexProcess.run(env, "run", manifest, "--detach");
    assertThat(started.exitCode()).as(started.stderr()).isZero();
    String runId = started.stdout().strip();
    Eventually.until(
        "the step started on the worker", LIMIT, () -> Files.exists(marks.resolve("pid")));
    long child = Long.parseLong(Files.readString(marks.resolve("pid")).strip());

    CortexProcess.Finished cancel = CortexProcess.run(env, "runs", "cancel", runId, "--json");

    assertThat(cancel.exitCode()).as(cancel.stdout() + cancel.stderr()).isZero();
    JsonNode trace = TestJson.JSON.readTree(cancel.stdout());
    assertThat(trace.path("status").asString()).isEqualTo("cancelled");
    assertThat(trace.path("engine").asString()).isEqualTo("temporal");
    assertThat(trace.path("cancelled").path("by").asString())
        .startsWith("person through cortex runs cancel");
    assertThat(WorkflowServer.step(trace, "work").path("status").asString()).isEqualTo("cancelled");
    assertThat(WorkflowServer.step(trace, "after").path("status").asString()).isEqualTo("pending");
    Eventually.until("the step's background child ended", LIMIT, () -> !RunStopIT.running(child));
    assertThat(marks.resolve("after")).doesNotExist();
  }

  /**
   * {@code cortex mcp} on stdio with {@code env}, spoken to in raw JSON-RPC lines by a client that
   * declares elicitation and approves each run's confirmation (a fake zenity approves too).
   */
  static RawStdio rawServer(Map<String, String> env) throws IOException {
    return RawStdio.initialized(
            FakeZenity.env(env, Files.createTempDirectory("zenity"), FakeZenity.APPROVE),
            "{\"elicitation\":{}}",
            List.of())
        .approvingConfirmations();
  }
}
