package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The workflow verbs on a terminal: text a person reads by default, the tools' JSON with {@code
 * --json}, and notes that name the command to type rather than an MCP call.
 */
class WorkflowTextIT {
  @TempDir Path home;
  @TempDir Path work;

  String workflow() throws Exception {
    return WorkflowServer.manifest(
        work,
        "big",
        """
        name: big
        version: 1.2.0
        description: Prints a lot.
        parameters:
          lines: {type: integer, default: 1000, min: 1, description: How many lines.}
        capabilities: [shell]
        steps:
          - id: print
            kind: shell
            with: {argv: [seq, "${{ .params.lines | tostring }}"]}
          - id: count
            kind: transform
            with: {expression: '.steps.print.stdout | length'}
        """);
  }

  CortexProcess.Finished cortex(String... args) throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_ASSUME_YES", "1");
    CortexProcess.Finished done = CortexProcess.run(env, args);
    assertThat(done.exitCode()).as("cortex %s: %s", String.join(" ", args), done.stderr()).isZero();
    return done;
  }

  @Test
  void run_withProgress_showsEachStepsOutputAsItComes_andQuietLeavesItOut() throws Exception {
    String err = cortex("run", workflow(), "--param", "lines=3", "--progress").stderr();

    assertThat(err).contains("    print | 1\n    print | 2\n    print | 3\n");
    assertThat(err.indexOf("    print | 3")).isLessThan(err.indexOf("1/2 print"));

    String quiet =
        cortex("run", workflow(), "--param", "lines=3", "--progress", "--quiet").stderr();
    assertThat(quiet).contains("1/2 print").doesNotContain("print | ");
  }

  /** The newest run's id. */
  String ran() throws Exception {
    return TestJson.JSON
        .readTree(cortex("runs", "list", "--json").stdout())
        .path("runs")
        .get(0)
        .path("run_id")
        .asString();
  }

  @Test
  void run_printsEachStepsOutcome_notTheTrace_andSaysHowToSeeAnOutput() throws Exception {
    String out = cortex("run", workflow(), "--no-progress").stdout();
    String runId = ran();

    assertThat(out)
        .startsWith("run " + runId + ": big 1.2.0, succeeded in ")
        .contains("parameters   lines=1000")
        .contains("steps (2 of 2 done):")
        .containsPattern("\\n  ok +print +\\d+ ms +exit 0, 1000 lines\\n")
        .containsPattern("\\n  ok +count ")
        .contains(
            "Outputs: cortex runs show "
                + runId
                + " --activity STEP prints one step's (some are too large to show inline)")
        .doesNotContain("{")
        .doesNotContain("runs_show");
  }

  @Test
  void runsList_andStatus_printTables_andJsonForScripts() throws Exception {
    cortex("run", workflow(), "--param", "lines=3");
    String runId = ran();

    String table = cortex("runs", "list").stdout();
    String status = cortex("status").stdout();
    JsonNode json = TestJson.JSON.readTree(cortex("status", "--json").stdout());

    assertThat(table.lines().findFirst().orElseThrow())
        .matches("RUN +WORKFLOW +VERSION +STATUS +STARTED +TOOK +STEPS");
    assertThat(table).containsPattern(runId + " +big +1\\.2\\.0 +succeeded +20\\d\\d-.*Z +.* +2/2");
    assertThat(status)
        .startsWith("cortex ")
        .contains("engine       embedded, reachable")
        .contains("runs         1 in all: 0 running, 1 succeeded, 0 failed")
        .contains("kinds        shell, http, sql, mcp, transform, llm");
    assertThat(json.path("runs").path("succeeded").asInt()).isEqualTo(1);
    assertThat(cortex("runs", "list", "--status", "failed").stdout()).isEqualTo("No runs.\n");
  }

  @Test
  void elisionNote_onTheCommandLine_namesTheCommand_andOverMcpTheCall() throws Exception {
    cortex("run", workflow());
    String runId = ran();

    JsonNode cli = TestJson.JSON.readTree(cortex("runs", "show", runId, "--json").stdout());
    JsonNode elided = cli.path("steps").get(0).path("output_elided");
    String step = cortex("runs", "show", runId, "--activity", "print").stdout();
    JsonNode tool;
    try (WorkflowServer server = WorkflowServer.start(home)) {
      tool = server.ok("runs_show", args("run_id", runId));
    }
    JsonNode mcp = tool.path("steps").get(0).path("output_elided");

    assertThat(elided.path("note").asString())
        .contains("Print it with: cortex runs show " + runId + " --activity print")
        .doesNotContain("runs_show");
    assertThat(elided.path("command").asString())
        .isEqualTo("cortex runs show " + runId + " --activity print");
    assertThat(mcp.path("note").asString())
        .contains("runs_show {\"run_id\":\"" + runId + "\",\"activity\":\"print\"}")
        .doesNotContain("cortex runs show");
    assertThat(step)
        .startsWith("step print (shell) of run " + runId + ", succeeded")
        .contains("summary      exit 0, 1000 lines")
        .contains("\"stdout\" : \"1\\n2\\n3\\n");
  }

  @Test
  void checkAndShow_describeTheWorkflowInText() throws Exception {
    String checked = cortex("check", workflow(), "--param", "lines=5").stdout();
    String shown = cortex("show", workflow()).stdout();

    assertThat(checked)
        .startsWith("workflow big 1.2.0 can run here, on the embedded engine.")
        .contains("parameters   lines=5")
        .contains("capabilities shell")
        .contains("steps        print (shell), count (transform)");
    assertThat(shown)
        .startsWith("big 1.2.0: Prints a lot.")
        .contains("  lines: integer, default 1000, min 1 - How many lines.")
        .contains("  1. print (shell)\n  2. count (transform)\n");
  }

  @Test
  void noRun_isAnErrorNamingTheCommandThatListsRuns() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    CortexProcess.Finished missing =
        CortexProcess.run(env, "runs", "show", "20261130T094512Z-k3m9x2qa");

    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.stderr())
        .contains("no run 20261130T094512Z-k3m9x2qa (see cortex runs list)")
        .doesNotContain("runs_list");
  }
}
