package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeZenity;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Stopping runs and the lifetimes of the processes their steps start, against the built program: a
 * cancelled run's later step leaves no side effect and its trace says cancelled (runs_cancel,
 * {@code cortex runs cancel} from another process, Ctrl-C on {@code cortex run}, the run call's
 * cancel with stop_on_cancel); a step's background child is gone when the step ends and when the
 * server is killed; a resumed run never runs an attempt beside a survivor of the interrupted one.
 */
class RunStopIT {
  static final Duration LIMIT = Duration.ofSeconds(90);

  @TempDir Path home;
  @TempDir Path work;

  /**
   * A workflow whose first step leaves a background sleep, reports both pids and sleeps; its second
   * step would leave a marker.
   */
  private String stoppable() throws IOException {
    return WorkflowServer.manifest(
        work,
        "stoppable",
        """
        name: stoppable
        version: "1"
        capabilities: [shell]
        steps:
          - id: work
            kind: shell
            with:
              script: "sleep 300 & echo $! $$ > %1$s/pids.tmp; mv %1$s/pids.tmp %1$s/pids; sleep 300"
          - id: after
            kind: shell
            with: {argv: [touch, "%1$s/after"]}
        """
            .formatted(work));
  }

  /** The pids the step reported, once it has. */
  private List<Long> pids() throws Exception {
    Eventually.until("the step reported its pids", LIMIT, () -> Files.exists(work.resolve("pids")));
    List<Long> pids = new ArrayList<>();
    for (String pid : Files.readString(work.resolve("pids")).strip().split(" ")) {
      pids.add(Long.parseLong(pid));
    }
    return pids;
  }

  private void assertStoppedBefore(JsonNode trace, String by, List<Long> pids) {
    assertThat(trace.path("status").asString()).as(trace.toString()).isEqualTo("cancelled");
    assertThat(trace.path("cancelled").path("by").asString()).isEqualTo(by);
    assertThat(trace.path("cancelled").path("at").asString()).isNotBlank();
    assertThat(step(trace, "work").path("status").asString()).isEqualTo("cancelled");
    assertThat(step(trace, "after").path("status").asString()).isEqualTo("pending");
    assertThat(work.resolve("after")).as("the later step left no mark").doesNotExist();
    for (long pid : pids) {
      assertThat(running(pid)).as("process %d of the cancelled step", pid).isFalse();
    }
  }

  private JsonNode traceFile(String runId) {
    return TestJson.JSON.readTree(home.resolve("runs").resolve(runId + ".json"));
  }

  @Test
  void runsCancel_stopsARun_andItsTraceSaysWhoCancelled() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home)) {
      String runId =
          server.ok("run", args("workflow", stoppable(), "detach", true)).path("run_id").asString();
      List<Long> pids = pids();

      JsonNode trace =
          server.ok("runs_cancel", args("run_id", runId, "reason", "the user pressed stop"));

      assertStoppedBefore(trace, "agent through runs_cancel", pids);
      assertThat(trace.path("cancelled").path("reason").asString())
          .isEqualTo("the user pressed stop");
      assertThat(traceFile(runId).path("status").asString()).isEqualTo("cancelled");
      assertThat(server.ok("runs_list", args("status", "cancelled")).path("count").asInt())
          .isEqualTo(1);
      server.fails("runs_cancel", args("run_id", runId + "x"), "INVALID_ARGUMENT");
    }
  }

  /**
   * Regression: a step's {@code setsid sh -c 'sleep 40' &} outlived runs_cancel, having left the
   * step's process group; it is the step's descendant all the same, and ends with it.
   */
  @Test
  void runsCancel_endsAStepsDescendantThatStartedASessionOfItsOwn() throws Exception {
    String manifest =
        WorkflowServer.manifest(
            work,
            "escapes",
            """
            name: escapes
            version: "1"
            capabilities: [shell]
            steps:
              - id: work
                kind: shell
                with:
                  script: "setsid sh -c 'sleep 40' & echo $! $$ > %1$s/pids.tmp; mv %1$s/pids.tmp %1$s/pids; sleep 300"
            """
                .formatted(work));
    try (WorkflowServer server = WorkflowServer.start(home)) {
      String runId =
          server.ok("run", args("workflow", manifest, "detach", true)).path("run_id").asString();
      List<Long> pids = pids();
      long session = pids.get(0);
      Eventually.until(
          "the step's descendant runs in a session of its own",
          LIMIT,
          () -> !sessionMembers(session).isEmpty());

      JsonNode trace = server.ok("runs_cancel", args("run_id", runId));

      assertThat(trace.path("status").asString()).as(trace.toString()).isEqualTo("cancelled");
      assertThat(sessionMembers(session)).as("processes of the descendant's session").isEmpty();
      assertThat(running(pids.get(1))).as("the step's shell").isFalse();
    }
  }

  /** The pids of the running processes of session {@code session}. */
  static List<Long> sessionMembers(long session) throws IOException {
    List<Long> members = new ArrayList<>();
    try (var entries = Files.list(Path.of("/proc"))) {
      for (Path entry : entries.toList()) {
        String name = entry.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(entry.resolve("stat"));
          String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          if (!fields[0].equals("Z") && Long.parseLong(fields[3]) == session) {
            members.add(Long.parseLong(name));
          }
        } catch (IOException e) {
          // gone meanwhile
        }
      }
    }
    return members;
  }

  @Test
  void cortexRunsCancel_fromAnotherProcess_stopsTheServersRun() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home)) {
      String runId =
          server.ok("run", args("workflow", stoppable(), "detach", true)).path("run_id").asString();
      List<Long> pids = pids();

      CortexProcess.Finished cancel =
          CortexProcess.run(
              CortexProcess.env(home), "runs", "cancel", runId, "--reason", "stop", "--json");

      assertThat(cancel.exitCode()).as(cancel.stderr()).isZero();
      JsonNode printed = TestJson.JSON.readTree(cancel.stdout());
      assertThat(printed.path("cancelled").path("by").asString())
          .startsWith("person through cortex runs cancel");
      assertStoppedBefore(
          server.ok("runs_show", args("run_id", runId)),
          printed.path("cancelled").path("by").asString(),
          pids);
      CortexProcess.Finished again =
          CortexProcess.run(CortexProcess.env(home), "runs", "cancel", runId);
      assertThat(again.exitCode()).as("cancelling a cancelled run changes nothing").isZero();
    }
  }

  @Test
  void ctrlC_onCortexRun_cancelsTheRun() throws Exception {
    Process run =
        CortexProcess.start(CortexProcess.env(home), "run", stoppable(), "--yes", "--no-progress");
    run.getOutputStream().close();
    List<Long> pids = pids();

    Process interrupt = new ProcessBuilder("kill", "-INT", Long.toString(run.pid())).start();
    assertThat(interrupt.waitFor()).isZero();

    assertThat(run.waitFor(LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    String stderr = new String(run.getErrorStream().readAllBytes());
    assertThat(stderr).contains("cancelled");
    Path trace = onlyTrace();
    assertStoppedBefore(
        TestJson.JSON.readTree(trace), "person at the terminal (Ctrl-C on cortex run)", pids);
  }

  @Test
  void stopOnCancel_theRunCallsCancelStopsTheRun_withoutItTheRunGoesOn() throws Exception {
    try (RawStdio wire = RunStopIT.wire(home)) {
      wire.send(
          JsonRpcLines.toolsCall(
              2,
              "run",
              "{\"workflow\":"
                  + WorkflowRunControlIT.quoted(stoppable())
                  + ",\"stop_on_cancel\":true}",
              "stop-1"));
      JsonNode plan = wire.next();
      assertThat(plan.path("params").path("message").asString()).startsWith("plan: run ");
      String runId = plan.path("params").path("message").asString().split(" ")[2];
      List<Long> pids = pids();

      wire.send(JsonRpcLines.cancel("2"));

      JsonNode trace = null;
      for (int id = 100; ; id++) {
        List<JsonNode> seen =
            wire.call(
                id,
                "runs_show",
                "{\"run_id\":" + WorkflowRunControlIT.quoted(runId) + "}",
                new ArrayList<>());
        trace = seen.get(seen.size() - 1).path("result").path("structuredContent");
        if (!trace.path("status").asString().equals("running")) {
          break;
        }
        Thread.sleep(100);
      }
      assertStoppedBefore(trace, "client through notifications/cancelled of its run call", pids);
    }
  }

  @Test
  void backgroundChild_isGoneWhenItsStepEnds() throws Exception {
    String manifest =
        WorkflowServer.manifest(
            work,
            "leaves-a-child",
            """
            name: leaves-a-child
            version: "1"
            capabilities: [shell]
            steps:
              - id: spawn
                kind: shell
                with: {script: "sleep 300 >/dev/null 2>&1 & echo $!"}
            """);
    try (WorkflowServer server = WorkflowServer.start(home)) {
      JsonNode trace = server.run(manifest, Map.of());

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      long child =
          Long.parseLong(step(trace, "spawn").path("output").path("stdout").asString().strip());
      Eventually.until("the step's background child ended", LIMIT, () -> !running(child));
    }
  }

  @Test
  void backgroundChild_isGoneWhenTheServerIsKilled() throws Exception {
    try (RawStdio wire = RunStopIT.wire(home)) {
      wire.call(
          2,
          "run",
          "{\"workflow\":" + WorkflowRunControlIT.quoted(stoppable()) + ",\"detach\":true}",
          new ArrayList<>());
      List<Long> pids = pids();

      wire.process.destroyForcibly();
      wire.process.waitFor();

      for (long pid : pids) {
        Eventually.until(
            "process " + pid + " of the killed server's step ended", LIMIT, () -> !running(pid));
      }
    }
  }

  @Test
  void resume_afterTheServerAndItsWatchAreKilled_neverRunsAnAttemptBesideTheOldOne()
      throws Exception {
    Path log = work.resolve("log");
    String manifest =
        WorkflowServer.manifest(
            work,
            "slow-effect",
            """
            name: slow-effect
            version: "1"
            capabilities: [shell]
            steps:
              - id: effect
                kind: shell
                with: {script: "echo start $$ >> %1$s; sleep 4; echo end $$ >> %1$s"}
            """
                .formatted(log));
    String runId;
    long first;
    try (RawStdio wire = RunStopIT.wire(home)) {
      List<JsonNode> seen =
          wire.call(
              2,
              "run",
              "{\"workflow\":" + WorkflowRunControlIT.quoted(manifest) + ",\"detach\":true}",
              new ArrayList<>());
      runId =
          seen.get(seen.size() - 1)
              .path("result")
              .path("structuredContent")
              .path("run_id")
              .asString();
      Eventually.until("the first attempt started", LIMIT, () -> lines(log).size() == 1);
      first = Long.parseLong(lines(log).get(0).split(" ")[1]);
      String run = runId;
      Eventually.until(
          "the first attempt's group is recorded with the run",
          LIMIT,
          () -> recordedGroups(run) == 1);
      // Kill the server and the watch it keeps over its process groups: only the group recorded
      // with the run is left to stop the first attempt.
      List<ProcessHandle> watch =
          ProcessHandle.of(wire.process.pid())
              .orElseThrow()
              .children()
              .filter(p -> p.info().commandLine().orElse("").contains("read -r op pg"))
              .toList();
      assertThat(watch).as("the server's watch over its groups").hasSize(1);
      watch.get(0).destroyForcibly();
      wire.process.destroyForcibly();
      wire.process.waitFor();
    }
    assertThat(running(first)).as("the first attempt outlived the server").isTrue();

    CortexProcess.Finished resumed =
        CortexProcess.run(CortexProcess.env(home), "runs", "resume", runId, "--no-progress");

    assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
    assertThat(running(first)).isFalse();
    List<String> lines = lines(log);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).isEqualTo("start " + first);
    assertThat(lines.get(1)).startsWith("start ").isNotEqualTo(lines.get(0));
    assertThat(lines.get(2)).isEqualTo("end " + lines.get(1).split(" ")[1]);
  }

  /** {@code cortex mcp} on a raw wire; a fake zenity approves every run. */
  static RawStdio wire(Path home) throws IOException {
    return RawStdio.initialized(
        FakeZenity.env(CortexProcess.env(home), home, FakeZenity.APPROVE), "{}", List.of());
  }

  private Path onlyTrace() throws IOException {
    try (var files = Files.list(home.resolve("runs"))) {
      List<Path> traces = files.toList();
      assertThat(traces).hasSize(1);
      return traces.get(0);
    }
  }

  /**
   * How many process groups the run index holds for {@code runId} (read from the database: the
   * server records a group just after it starts it, and only a recorded group can be ended on
   * resume once the server and its watch are gone).
   */
  private long recordedGroups(String runId) {
    try (java.sql.Connection db =
            java.sql.DriverManager.getConnection(
                "jdbc:sqlite:" + home.resolve("data").resolve("cortex.sqlite3"));
        java.sql.PreparedStatement query =
            db.prepareStatement("SELECT COUNT(*) FROM workflow_run_groups WHERE run_id = ?")) {
      query.setString(1, runId);
      try (java.sql.ResultSet rows = query.executeQuery()) {
        return rows.next() ? rows.getLong(1) : 0;
      }
    } catch (java.sql.SQLException e) {
      return 0;
    }
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file) : List.of();
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Whether {@code pid} runs (a zombie has ended). */
  static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }
}
