package dev.cortex.e2e.mcp;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.tool.AnswerBound;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.EvidenceServer;
import dev.cortex.testing.Listed;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * No answer of any tool exceeds {@link AnswerBound#MAX_CHARS} characters, neither its structured
 * content nor its text copy: a step's 5 MB output read back through every tool, and the largest
 * context the evidence group can hold, come back elided or as a spill file with a 2 KB preview.
 */
class BoundedAnswersIT {
  static final int OUTPUT_BYTES = 5_000_000;

  @TempDir Path home;
  @TempDir Path work;

  /** Asserts the bound on one answer and returns it. */
  static Outcome bounded(String what, Outcome outcome) {
    assertThat(outcome.text().length())
        .as("text of %s", what)
        .isLessThanOrEqualTo(AnswerBound.MAX_CHARS);
    assertThat(outcome.structured().toString().length())
        .as("structured content of %s", what)
        .isLessThanOrEqualTo(AnswerBound.MAX_CHARS);
    return outcome;
  }

  /** The spill file of a spilled answer, checked to hold the whole of it. */
  static JsonNode spilled(String what, Outcome outcome, long atLeast) throws Exception {
    JsonNode spilled = outcome.structured().path("spilled");
    assertThat(spilled.isObject()).as("%s is spilled: %s", what, outcome.text()).isTrue();
    Path file = Path.of(spilled.path("saved_to").asString());
    assertThat(file).exists();
    assertThat(Files.size(file)).isGreaterThanOrEqualTo(atLeast);
    assertThat(spilled.path("total_chars").asLong()).isEqualTo(Files.readString(file).length());
    assertThat(spilled.path("preview").asString())
        .isNotEmpty()
        .satisfies(
            p ->
                assertThat(p.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .hasSizeLessThanOrEqualTo(2048));
    assertThat(Files.readString(file)).startsWith(spilled.path("preview").asString());
    return TestJson.JSON.readTree(file);
  }

  @Test
  void aStepsFiveMegabytes_throughEveryWorkflowTool_stayUnderTheBound() throws Exception {
    String manifest =
        WorkflowServer.manifest(
            work,
            "loud",
            """
            name: loud
            version: "1"
            capabilities: [shell]
            steps:
              - id: loud
                kind: shell
                with: {script: "head -c %d /dev/zero | tr '\\\\0' a"}
              - id: after
                kind: transform
                with: {expression: '.steps.loud.stdout | length'}
            """
                .formatted(OUTPUT_BYTES));
    Set<String> called = new HashSet<>();
    try (WorkflowServer server = WorkflowServer.start(home)) {
      Outcome ran = bounded("run", server.call("run", args("workflow", manifest)));
      called.add("run");
      String runId = ran.structured().path("run_id").asString();
      assertThat(ran.structured().path("status").asString()).isEqualTo("succeeded");
      assertThat(step(ran.structured(), "loud").has("output_elided")).isTrue();
      assertThat(step(ran.structured(), "after").path("output").asInt()).isEqualTo(OUTPUT_BYTES);

      bounded("runs_show", server.call("runs_show", args("run_id", runId)));
      JsonNode activity =
          spilled(
              "runs_show activity",
              bounded(
                  "runs_show activity",
                  server.call("runs_show", args("run_id", runId, "activity", "loud"))),
              OUTPUT_BYTES);
      assertThat(activity.path("step").path("output").path("stdout").asString())
          .hasSize(OUTPUT_BYTES);
      JsonNode full =
          spilled(
              "runs_show full",
              bounded(
                  "runs_show full", server.call("runs_show", args("run_id", runId, "full", true))),
              OUTPUT_BYTES);
      assertThat(step(full, "loud").path("output").path("stdout").asString()).hasSize(OUTPUT_BYTES);
      called.add("runs_show");
      bounded("runs_list", server.call("runs_list", args("limit", 200)));
      called.add("runs_list");
      bounded("runs_cancel", server.call("runs_cancel", args("run_id", runId)));
      called.add("runs_cancel");
      bounded("check", server.call("check", args("workflow", manifest)));
      called.add("check");
      bounded("show", server.call("show", args("workflow", manifest)));
      called.add("show");
      bounded("status", server.call("status", Map.of()));
      called.add("status");

      List<String> workflowTools = new ArrayList<>();
      for (Listed tool : server.tools()) {
        if (!tool.name().startsWith("cortex_")) {
          workflowTools.add(tool.name());
        }
        JsonNode branches = tool.outputSchema().path("anyOf");
        assertThat(branches.size()).as("%s admits a spilled answer", tool.name()).isEqualTo(2);
        assertThat(branches.get(1).path("required").get(0).asString()).isEqualTo("spilled");
      }
      assertThat(called).containsExactlyInAnyOrderElementsOf(workflowTools);
    }
    CortexProcess.Finished cli =
        CortexProcess.run(
            CortexProcess.env(home),
            "tools",
            "call",
            "runs_show",
            "{\"run_id\":\"" + onlyRun() + "\",\"full\":true}");
    assertThat(cli.exitCode()).as(cli.stderr()).isZero();
    assertThat(cli.stdout().length()).isLessThanOrEqualTo(AnswerBound.MAX_CHARS + 1);
    assertThat(TestJson.JSON.readTree(cli.stdout()).has("spilled")).isTrue();
  }

  @Test
  void theLargestEvidenceContext_staysUnderTheBound_asASpillFile() throws Exception {
    try (EvidenceServer server = EvidenceServer.start(home)) {
      List<Map<String, Object>> criteria = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        criteria.add(args("key", "k" + i, "description", "d".repeat(2000), "required", true));
      }
      for (int c = 0; c < 3; c++) {
        server.ok(
            "cortex_create_claim",
            args("project_id", "big", "statement", "s".repeat(4000), "criteria", criteria));
      }
      for (String tool : List.of("cortex_health", "cortex_get_context")) {
        Outcome outcome =
            bounded(
                tool,
                server.call(
                    tool,
                    tool.equals("cortex_health")
                        ? Map.of()
                        : args("project_id", "big", "include", EvidenceServer.COLLECTIONS)));
        if (tool.equals("cortex_get_context")) {
          JsonNode whole = spilled(tool, outcome, 3 * 64_000);
          assertThat(whole.path("claims").size()).isEqualTo(3);
        }
      }
    }
  }

  private String onlyRun() throws Exception {
    try (var files = Files.list(home.resolve("runs"))) {
      List<Path> traces = files.toList();
      assertThat(traces).hasSize(1);
      return traces.get(0).getFileName().toString().replace(".json", "");
    }
  }
}
