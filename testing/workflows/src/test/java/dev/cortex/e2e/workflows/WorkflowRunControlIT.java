package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.WorkflowServer.example;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeZenity;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Following and controlling runs of the built program: progress notifications, cancellation,
 * detached runs, and a CLI run killed mid-way then resumed.
 */
class WorkflowRunControlIT {
  static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path home;
  @TempDir Path work;

  /**
   * {@code cortex mcp} on stdio spoken to in raw JSON-RPC lines, to see the wire's order; it
   * confirms runs through a native dialog that approves: the wire has no other channel.
   */
  static RawStdio wire(Path home) throws IOException {
    return RawStdio.initialized(
        FakeZenity.env(CortexProcess.env(home), home, FakeZenity.APPROVE), "{}", List.of());
  }

  static String quoted(String text) {
    return TestJson.JSON.writeValueAsString(text);
  }

  /** The shell-pipeline example's arguments over a small directory. */
  String pipelineArguments() throws IOException {
    Path dir = Files.createDirectories(work.resolve("listing"));
    Files.writeString(dir.resolve("a.txt"), "a");
    Files.writeString(dir.resolve("b.md"), "b");
    return "{\"workflow\":"
        + quoted(example("shell-pipeline"))
        + ",\"params\":{\"dir\":"
        + quoted(dir.toString())
        + "}}";
  }

  static final Pattern STEP_MESSAGE =
      Pattern.compile("step (\\d)/3 '(\\w+)' succeeded in \\d+ ms: (.+)");

  @Test
  void progress_sdkClient_getsThePlanThenEachStep() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home)) {
      Path dir = Files.createDirectories(work.resolve("listing"));
      Files.writeString(dir.resolve("a.txt"), "a");

      Outcome outcome =
          server.call(
              "run",
              args("workflow", example("shell-pipeline"), "params", args("dir", dir.toString())),
              "progress-1");

      assertThat(outcome.isError()).as(outcome.text()).isFalse();
      String runId = outcome.structured().path("run_id").asString();
      Eventually.until("four progress notifications", LIMIT, () -> server.progress.size() >= 4);
      List<McpSchema.ProgressNotification> notes = new ArrayList<>(server.progress);
      notes.sort(Comparator.comparingDouble(McpSchema.ProgressNotification::progress));
      assertThat(notes).hasSize(4);
      assertThat(notes).allSatisfy(n -> assertThat(n.progressToken()).isEqualTo("progress-1"));
      assertThat(notes).allSatisfy(n -> assertThat(n.total()).isEqualTo(3.0));
      assertThat(notes)
          .extracting(McpSchema.ProgressNotification::progress)
          .containsExactly(0.0, 1.0, 2.0, 3.0);
      assertThat(notes.get(0).message())
          .isEqualTo(
              "plan: run "
                  + runId
                  + " of shell-pipeline 1.0.0, 3 steps: list (shell), files (transform),"
                  + " by_extension (transform)");
      assertThat(notes.get(1).message()).matches("step 1/3 'list' succeeded in \\d+ ms: .+");
      assertThat(notes.get(2).message())
          .matches("step 2/3 'files' succeeded in \\d+ ms: array of 1");
      assertThat(notes.get(3).message())
          .matches("step 3/3 'by_extension' succeeded in \\d+ ms: array of 1");
    }
  }

  @Test
  void progress_onTheWire_planAndEveryStepPrecedeTheResultInOrder() throws Exception {
    try (RawStdio wire = wire(home)) {
      wire.send(JsonRpcLines.toolsCall(2, "run", pipelineArguments(), "wire-1"));
      List<JsonNode> messages = new ArrayList<>();
      for (JsonNode m = wire.next(); ; m = wire.next()) {
        messages.add(m);
        if (m.path("id").asInt(-1) == 2 && !m.has("method")) {
          break;
        }
      }

      JsonNode result = messages.get(messages.size() - 1).path("result");
      assertThat(result.path("isError").asBoolean(false)).as(result.toString()).isFalse();
      assertThat(result.path("structuredContent").path("status").asString()).isEqualTo("succeeded");
      List<String> progress = new ArrayList<>();
      for (JsonNode m : messages.subList(0, messages.size() - 1)) {
        assertThat(m.path("method").asString()).isEqualTo("notifications/progress");
        assertThat(m.path("params").path("progressToken").asString()).isEqualTo("wire-1");
        progress.add(m.path("params").path("message").asString());
      }
      assertThat(progress).hasSize(4);
      assertThat(progress.get(0)).startsWith("plan: run ");
      List<String> steps = new ArrayList<>();
      for (String message : progress.subList(1, 4)) {
        Matcher matcher = STEP_MESSAGE.matcher(message);
        assertThat(matcher.matches()).as(message).isTrue();
        steps.add(matcher.group(1) + " " + matcher.group(2));
      }
      assertThat(steps).containsExactly("1 list", "2 files", "3 by_extension");
    }
  }

  @Test
  void cancel_suppressesTheAnswer_butTheRunEndsAndIsKept() throws Exception {
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
    try (RawStdio wire = wire(home)) {
      wire.send(
          JsonRpcLines.toolsCall(2, "run", "{\"workflow\":" + quoted(sleepy) + "}", "cancel-1"));
      List<JsonNode> seen = new ArrayList<>();
      JsonNode plan = wire.next();
      while (!plan.path("params").path("message").asString().startsWith("plan: run ")) {
        assertThat(plan.path("id").asInt(-1))
            .as("answered before the plan: %s", plan)
            .isNotEqualTo(2);
        seen.add(plan);
        plan = wire.next();
      }
      seen.add(plan);
      String runId = plan.path("params").path("message").asString().split(" ")[2];

      wire.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":"
              + "{\"requestId\":2,\"reason\":\"the user gave up\"}}");

      Instant deadline = Instant.now().plus(LIMIT);
      String status = "running";
      for (int id = 100; !status.equals("succeeded"); id++) {
        assertThat(Instant.now()).as("run %s still %s", runId, status).isBefore(deadline);
        List<JsonNode> answer =
            wire.call(id, "runs_list", "{\"workflow\":\"cancel-me\"}", new ArrayList<>());
        seen.addAll(answer);
        JsonNode runs = answer.get(answer.size() - 1).path("result").path("structuredContent");
        assertThat(runs.path("count").asInt()).isEqualTo(1);
        assertThat(runs.path("runs").get(0).path("run_id").asString()).isEqualTo(runId);
        status = runs.path("runs").get(0).path("status").asString();
        if (!status.equals("succeeded")) {
          Thread.sleep(100);
        }
      }
      List<JsonNode> shown =
          wire.call(999, "runs_show", "{\"run_id\":" + quoted(runId) + "}", new ArrayList<>());
      seen.addAll(shown);
      wire.closeInput();
      seen.addAll(wire.rest());

      assertThat(seen)
          .as("nothing answers the cancelled request")
          .noneMatch(m -> m.path("id").asInt(-1) == 2 && !m.has("method"));
      JsonNode trace = shown.get(shown.size() - 1).path("result").path("structuredContent");
      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      assertThat(step(trace, "after").path("output").asString()).isEqualTo("done");
      Path file = home.resolve("runs").resolve(runId + ".json");
      assertThat(file).exists();
      assertThat(TestJson.JSON.readTree(file).path("status").asString()).isEqualTo("succeeded");
      assertThat(wire.stderrAtExit()).doesNotContain("Exception");
    }
  }

  @Test
  void detach_returnsTheRunIdAtOnce_andTheRunGoesOnToSucceed() throws Exception {
    String sleepy =
        WorkflowServer.manifest(
            work,
            "detached",
            """
            name: detached
            version: "1"
            capabilities: [shell]
            steps:
              - id: nap
                kind: shell
                with: {argv: [sleep, "1"]}
            """);
    try (WorkflowServer server = WorkflowServer.start(home)) {
      JsonNode detached = server.ok("run", args("workflow", sleepy, "detach", true));

      String runId = detached.path("run_id").asString();
      assertThat(detached.path("status").asString()).isEqualTo("running");
      assertThat(detached.path("detached").asBoolean()).isTrue();
      assertThat(detached.path("note").asString())
          .contains("runs_show {\"run_id\":\"" + runId + "\"}");
      assertThat(detached.has("steps")).isFalse();

      JsonNode trace =
          server.awaitRun(runId, t -> !t.path("status").asString().equals("running"), LIMIT);

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      assertThat(step(trace, "nap").path("status").asString()).isEqualTo("succeeded");
    }
  }

  @Test
  void crash_aKilledCliRunIsInterrupted_andResumeFinishesItWithoutRerunningDoneSteps()
      throws Exception {
    String slow =
        WorkflowServer.manifest(
            work,
            "three-steps",
            """
            name: three-steps
            version: "1"
            capabilities: [shell]
            steps:
              - id: first
                kind: shell
                with: {argv: [echo, first]}
              - id: slow
                kind: shell
                with: {argv: [sleep, "5"]}
              - id: last
                kind: shell
                with: {argv: [echo, last]}
            """);
    var env = CortexProcess.env(home);
    // A server that has already looked at the runs before the crash must see it too.
    WorkflowServer server = WorkflowServer.start(home);
    assertThat(server.ok("status", java.util.Map.of()).path("runs").path("total").asInt()).isZero();
    Process run = CortexProcess.start(env, "run", slow, "--progress", "--yes");
    String runId;
    try {
      run.getOutputStream().close();
      BufferedReader progress =
          new BufferedReader(new InputStreamReader(run.getErrorStream(), StandardCharsets.UTF_8));
      String line = progress.readLine();
      while (line != null && !line.startsWith("run ")) {
        line = progress.readLine();
      }
      assertThat(line).as("the run's first line").isNotNull();
      runId = line.substring(4, line.indexOf(':'));
      // The line of a step is printed after its record is committed.
      for (line = progress.readLine(); line != null; line = progress.readLine()) {
        if (line.strip().startsWith("ok   1/3 first")) {
          break;
        }
      }
      assertThat(line).as("the first step's line").isNotNull();
    } finally {
      run.destroyForcibly();
    }
    assertThat(run.waitFor(30, TimeUnit.SECONDS)).isTrue();

    try (server) {
      JsonNode seen = server.ok("runs_list", java.util.Map.of());
      assertThat(seen.path("runs").get(0).path("status").asString()).isEqualTo("interrupted");
    }
    JsonNode before = cli(env, 0, "runs", "show", runId);
    JsonNode listed = cli(env, 0, "runs", "list");
    JsonNode status = cli(env, 0, "status");

    assertThat(before.path("status").asString()).isEqualTo("interrupted");
    assertThat(WorkflowExamplesIT.statuses(before))
        .containsExactly("succeeded", "pending", "pending");
    assertThat(listed.path("runs").get(0).path("run_id").asString()).isEqualTo(runId);
    assertThat(listed.path("runs").get(0).path("status").asString()).isEqualTo("interrupted");
    assertThat(status.path("runs").path("interrupted").asInt()).isEqualTo(1);
    assertThat(status.path("runs").path("running").asInt()).isZero();

    JsonNode resumed = cli(env, 0, "runs", "resume", runId);

    assertThat(resumed.path("run_id").asString()).isEqualTo(runId);
    assertThat(resumed.path("status").asString()).isEqualTo("succeeded");
    assertThat(resumed.path("resumes").asInt()).isEqualTo(1);
    assertThat(WorkflowExamplesIT.statuses(resumed))
        .containsExactly("succeeded", "succeeded", "succeeded");
    assertThat(step(resumed, "first")).isEqualTo(step(before, "first"));
    assertThat(step(resumed, "last").path("output").path("stdout").asString()).isEqualTo("last\n");
    JsonNode after = cli(env, 0, "status");
    assertThat(after.path("runs").path("interrupted").asInt()).isZero();
    assertThat(after.path("runs").path("succeeded").asInt()).isEqualTo(1);
    cli(env, 1, "runs", "resume", runId);
  }

  /**
   * Runs the CLI with {@code --json} (on the verbs that answer with data), expects {@code
   * exitCode}, and returns its standard output as JSON.
   */
  static JsonNode cli(java.util.Map<String, String> env, int exitCode, String... args)
      throws Exception {
    CortexProcess.Finished done = CortexProcess.run(env, json(args));
    assertThat(done.exitCode())
        .as("cortex %s: %s", String.join(" ", args), done.stderr())
        .isEqualTo(exitCode);
    return exitCode == 0 ? TestJson.JSON.readTree(done.stdout()) : null;
  }

  /** {@code args} with {@code --json} added when the verb prints data (text by default). */
  static String[] json(String... args) {
    java.util.List<String> verb = java.util.List.of(args).subList(0, Math.min(2, args.length));
    boolean data =
        java.util.List.of("check", "show", "run", "status").contains(verb.get(0))
            || verb.get(0).equals("runs")
                && verb.size() > 1
                && java.util.List.of("list", "show", "cancel", "resume").contains(verb.get(1));
    if (!data || java.util.List.of(args).contains("--detach")) {
      return args;
    }
    String[] with = java.util.Arrays.copyOf(args, args.length + 1);
    with[args.length] = "--json";
    return with;
  }
}
