package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeZenity;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The human's consent before every run of the built program: MCP elicitation that accepts, declines
 * or never answers; a fake zenity on PATH that approves, declines or is absent; the channel order
 * and grace period; and the command line's terminal, --yes and CORTEX_ASSUME_YES.
 */
class ConsentIT {
  static final String SHORT_TIMEOUT = "-Dcortex.test.confirmTimeoutMillis=1500";

  @TempDir Path home;
  @TempDir Path work;

  String workflow() throws Exception {
    return WorkflowServer.manifest(
        work,
        "greet",
        """
        name: greet
        version: 2.0.0
        description: Says hello.
        parameters:
          who: {type: string, required: true}
        capabilities: [shell]
        steps:
          - id: hello
            kind: shell
            with: {argv: [echo, "hello ${{ .params.who }}"]}
        """);
  }

  Map<String, Object> greet() throws Exception {
    return args("workflow", workflow(), "params", args("who", "Ana"));
  }

  static McpSchema.ElicitResult answer(McpSchema.ElicitResult.Action action, Object approve) {
    return new McpSchema.ElicitResult(action, approve == null ? null : Map.of("approve", approve));
  }

  @Test
  void elicitation_accepted_runs_afterAskingWithWorkflowSourceAndParameters() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      JsonNode trace = server.ok("run", greet());

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      assertThat(server.asked).hasSize(1);
      McpSchema.ElicitFormRequest asked = server.asked.get(0);
      assertThat(asked.message())
          .contains("workflow 'greet' 2.0.0")
          .contains("Source: " + workflow())
          .contains("who = \"Ana\"")
          .contains("Capabilities: shell");
      assertThat(TestJson.JSON.valueToTree(asked.requestedSchema()).path("required").toString())
          .isEqualTo("[\"approve\"]");
    }
  }

  @Test
  void elicitation_declined_orDismissed_orUnticked_runsNothing() throws Exception {
    for (McpSchema.ElicitResult reply :
        List.of(
            answer(McpSchema.ElicitResult.Action.DECLINE, null),
            answer(McpSchema.ElicitResult.Action.CANCEL, null),
            answer(McpSchema.ElicitResult.Action.ACCEPT, false))) {
      try (WorkflowServer server = WorkflowServer.start(home, Map.of(), request -> reply)) {
        Outcome refused = server.fails("run", greet(), "CONSENT_DECLINED");

        assertThat(refused.errorMessage())
            .contains("declined the run of workflow 'greet'")
            .contains("Nothing ran");
        assertThat(server.runCount()).isZero();
      }
    }
  }

  @Test
  void elicitation_neverAnswered_timesOut_andRunsNothing() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (WorkflowServer server =
        WorkflowServer.start(
            home,
            Map.of(),
            request -> {
              try {
                never.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return answer(McpSchema.ElicitResult.Action.ACCEPT, true);
            },
            SHORT_TIMEOUT)) {
      Outcome refused = server.fails("run", greet(), "CONSENT_TIMEOUT");
      never.countDown();

      assertThat(refused.errorMessage()).contains("Nobody answered").contains("Nothing ran");
      assertThat(server.runCount()).isZero();
    }
  }

  @Test
  void nativeDialog_approves_whenTheClientHasNoElicitation() throws Exception {
    Map<String, String> env = FakeZenity.env(Map.of(), work, FakeZenity.APPROVE);
    try (WorkflowServer server = WorkflowServer.start(home, env, null)) {
      JsonNode trace = server.ok("run", greet());

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      String shown = String.join("\n", FakeZenity.calls(work));
      assertThat(shown).contains("--question", "--no-markup", "workflow 'greet' 2.0.0");
      assertThat(shown).contains("who = \"Ana\"");
    }
  }

  @Test
  void nativeDialog_declines_evenWithAssumeYesInTheServersEnvironment() throws Exception {
    Map<String, String> env = FakeZenity.env(Map.of(), work, FakeZenity.DECLINE);
    env.put("CORTEX_ASSUME_YES", "1");
    try (WorkflowServer server = WorkflowServer.start(home, env, null)) {
      server.fails("run", greet(), "CONSENT_DECLINED");

      assertThat(server.runCount()).isZero();
    }
  }

  @Test
  void noChannel_refuses_pointingAtTheTerminal_assumeYesOrNot() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("CORTEX_ASSUME_YES", "1");
    try (WorkflowServer server = WorkflowServer.start(home, env, null)) {
      Outcome refused = server.fails("run", greet(), "CONSENT_UNAVAILABLE");

      assertThat(refused.errorMessage())
          .contains("the MCP client did not declare elicitation")
          .contains("no graphical display")
          .contains("cortex run " + workflow() + " --param who=Ana");
      assertThat(server.runCount()).isZero();
    }
  }

  @Test
  void disableNativeConfirm_refuses_thoughZenityWouldApprove() throws Exception {
    Map<String, String> env = FakeZenity.env(Map.of(), work, FakeZenity.APPROVE);
    env.put("CORTEX_MCP_DISABLE_NATIVE_CONFIRM", "1");
    try (WorkflowServer server = WorkflowServer.start(home, env, null)) {
      Outcome refused = server.fails("run", greet(), "CONSENT_UNAVAILABLE");

      assertThat(refused.errorMessage()).contains("CORTEX_MCP_DISABLE_NATIVE_CONFIRM=1");
      assertThat(FakeZenity.calls(work)).isEmpty();
      assertThat(server.runCount()).isZero();
    }
  }

  @Test
  void checkShowRunsAndStatus_neverAsk() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      JsonNode checked = server.ok("check", greet());
      server.ok("show", args("workflow", workflow()));
      server.ok("runs_list", Map.of());
      server.ok("status", Map.of());

      assertThat(checked.path("consent_required").asBoolean(true)).isFalse();
      assertThat(server.asked).isEmpty();
    }
  }

  @Test
  void grace_unansweredElicitation_isJoinedByTheDialog_whichWins_andTheFormIsWithdrawn()
      throws Exception {
    Map<String, String> env = FakeZenity.env(CortexProcess.env(home), work, "sleep 1.5\nexit 0");
    env.put("CORTEX_CONFIRM_GRACE_SECONDS", "1");
    try (RawStdio wire = RawStdio.initialized(env, "{\"elicitation\":{}}", List.of())) {
      wire.call(2, "run", TestJson.JSON.writeValueAsString(greet()));

      JsonNode asked = wire.until("elicitation/create", 2);
      JsonNode withdrawn = wire.until("notifications/cancelled", 2);
      JsonNode result = wire.until("-", 2);

      assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
      assertThat(withdrawn.path("method").asString()).isEqualTo("notifications/cancelled");
      assertThat(withdrawn.path("params").path("requestId")).isEqualTo(asked.path("id"));
      assertThat(result.path("result").path("structuredContent").path("status").asString())
          .as(result.toString())
          .isEqualTo("succeeded");
      assertThat(FakeZenity.calls(work)).contains("--question");
    }
  }

  /**
   * The defaults, with a client that declares elicitation and never answers (as some do without
   * showing the form): after the grace period the dialog is offered with the rest of a wait that
   * ends inside the minute many clients give a call, and its answer runs the workflow.
   */
  @Test
  void defaults_elicitationNeverAnswered_dialogOfferedWithinTheWait_andItsAnswerRuns()
      throws Exception {
    Map<String, String> env = FakeZenity.env(CortexProcess.env(home), work, FakeZenity.APPROVE);
    env.remove("CORTEX_CONFIRM_GRACE_SECONDS");
    env.remove("CORTEX_CONFIRM_TIMEOUT_SECONDS");
    try (RawStdio wire = RawStdio.initialized(env, "{\"elicitation\":{}}", List.of())) {
      wire.call(2, "run", TestJson.JSON.writeValueAsString(greet()));

      JsonNode asked = wire.until("elicitation/create", 2);
      JsonNode withdrawn = wire.until("notifications/cancelled", 2);
      JsonNode result = wire.until("-", 2);

      assertThat(asked.path("method").asString()).isEqualTo("elicitation/create");
      assertThat(withdrawn.path("params").path("requestId")).isEqualTo(asked.path("id"));
      assertThat(result.path("result").path("structuredContent").path("status").asString())
          .as(result.toString())
          .isEqualTo("succeeded");
      List<String> shown = FakeZenity.calls(work);
      assertThat(shown).contains("--question");
      int dialogSeconds =
          shown.stream()
              .filter(a -> a.startsWith("--timeout="))
              .mapToInt(a -> Integer.parseInt(a.substring("--timeout=".length())))
              .findFirst()
              .orElseThrow();
      assertThat(dialogSeconds)
          .as("the dialog gets what is left of the 45 s wait after the 10 s grace")
          .isBetween(1, 35);
    }
  }

  @Test
  void channelOrder_dialogFirst_elicitationAnswersFirst_andTheDialogIsClosed() throws Exception {
    Path closed = work.resolve("dialog-closed");
    Map<String, String> env =
        FakeZenity.env(
            CortexProcess.env(home),
            work,
            "trap 'echo closed > \"" + closed + "\"; exit 1' TERM\nsleep 60 &\nwait");
    env.put("CORTEX_CONFIRM_CHANNELS", "native,elicitation");
    env.put("CORTEX_CONFIRM_GRACE_SECONDS", "0");
    try (RawStdio wire = RawStdio.initialized(env, "{\"elicitation\":{}}", List.of())) {
      wire.call(2, "run", TestJson.JSON.writeValueAsString(greet()));

      JsonNode asked = wire.until("elicitation/create", 2);
      wire.answer(asked.path("id"), "{\"action\":\"accept\",\"content\":{\"approve\":true}}");
      JsonNode result = wire.until("-", 2);

      assertThat(result.path("result").path("structuredContent").path("status").asString())
          .as(result.toString())
          .isEqualTo("succeeded");
      Eventually.until(
          "the dialog was withdrawn", Duration.ofSeconds(20), () -> Files.exists(closed));
    }
  }

  @Test
  void badSettings_stopTheServerAtStart_namingTheVariable() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_CONFIRM_GRACE_SECONDS", "forever");

    CortexProcess.Finished run = CortexProcess.run(env, "mcp");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("CORTEX_CONFIRM_GRACE_SECONDS='forever'");
  }

  @Test
  void cli_withoutATerminal_needsYesOrAssumeYes() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.remove("CORTEX_ASSUME_YES");

    CortexProcess.Finished refused =
        CortexProcess.run(env, "run", workflow(), "--param", "who=Ana");
    CortexProcess.Finished yes =
        CortexProcess.run(env, "run", workflow(), "--param", "who=Ana", "--yes");
    env.put("CORTEX_ASSUME_YES", "1");
    CortexProcess.Finished assumed =
        CortexProcess.run(env, "run", workflow(), "--param", "who=Ana");
    env.remove("CORTEX_ASSUME_YES");
    CortexProcess.Finished tool =
        CortexProcess.run(env, "tools", "call", "run", TestJson.JSON.writeValueAsString(greet()));

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.stdout()).isEmpty();
    assertThat(refused.stderr())
        .startsWith("cortex: CONSENT_UNAVAILABLE: ")
        .contains("no terminal to ask on; pass --yes or set CORTEX_ASSUME_YES=1");
    assertThat(yes.exitCode()).as(yes.stderr()).isZero();
    assertThat(yes.stderr()).contains("confirmed by --yes");
    assertThat(assumed.exitCode()).as(assumed.stderr()).isZero();
    assertThat(tool.exitCode()).isEqualTo(1);
    assertThat(tool.stderr()).contains("CONSENT_UNAVAILABLE");
    JsonNode runs = WorkflowRunControlIT.cli(env, 0, "runs", "list");
    assertThat(runs.path("count").asInt()).as("two confirmed runs, no others").isEqualTo(2);
  }

  @Test
  void cli_onATerminal_asksYesOrNo() throws Exception {
    JsonNode runs;
    for (String reply : List.of("n", "y")) {
      ProcessBuilder builder =
          new ProcessBuilder(
              "script",
              "-qec",
              String.join(
                  " ",
                  CortexProcess.command("run", workflow(), "--param", "who=Ana").stream()
                      .map(a -> "'" + a + "'")
                      .toList()),
              "/dev/null");
      builder.environment().putAll(CortexProcess.env(home));
      builder.redirectErrorStream(true);
      Process process = builder.start();
      String seen = awaitPrompt(process);
      process.getOutputStream().write((reply + "\n").getBytes());
      process.getOutputStream().flush();
      String rest = new String(process.getInputStream().readAllBytes());
      int code = process.waitFor();

      assertThat(seen)
          .contains("You are about to run workflow 'greet' 2.0.0")
          .contains("Run? [y/N]")
          .as("the person typed the command: no agent asks")
          .doesNotContain("agent");
      if (reply.equals("n")) {
        assertThat(code).isEqualTo(1);
        assertThat(rest).contains("CONSENT_DECLINED");
      } else {
        assertThat(code).as(rest).isZero();
        assertThat(rest).contains(": greet 2.0.0, succeeded").contains("ok ");
      }
    }
    runs = WorkflowRunControlIT.cli(CortexProcess.env(home), 0, "runs", "list");
    assertThat(runs.path("count").asInt()).isEqualTo(1);
  }

  /** Reads the terminal's output up to the y/N prompt. */
  private static String awaitPrompt(Process process) throws Exception {
    StringBuilder seen = new StringBuilder();
    Instant deadline = Instant.now().plusSeconds(60);
    var in = process.getInputStream();
    while (!seen.toString().contains("[y/N]")) {
      assertThat(Instant.now()).as("prompt; so far: %s", seen).isBefore(deadline);
      int b = in.read();
      assertThat(b).as("output ended before the prompt: %s", seen).isNotEqualTo(-1);
      seen.append((char) b);
    }
    return seen.toString();
  }
}
