package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.WorkflowServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Workflows that cannot run, one manifest per case: {@code check} and {@code run} over MCP give the
 * same code and message, {@code cortex check} prints the same, and nothing is recorded.
 */
class WorkflowErrorsIT {
  @TempDir static Path home;
  @TempDir static Path manifests;
  static WorkflowServer server;

  @BeforeAll
  static void start() {
    server = WorkflowServer.start(home);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * One case: a manifest ({@code {FILE}} in {@code expected} stands for its path), parameters as
   * MCP gives them and as the CLI does, the error code and what its message must contain.
   */
  record Case(
      String name,
      String yaml,
      Map<String, Object> params,
      List<String> cliParams,
      String code,
      String expected) {
    @Override
    public String toString() {
      return name;
    }

    /** Whether the CLI gets the same input, hence the very same message: no parameters given. */
    boolean sameOnTheCli() {
      return params.isEmpty() && cliParams.isEmpty();
    }
  }

  static final String SHELL_HEAD =
      """
      name: bad
      version: "1"
      capabilities: [shell]
      """;

  static final String HTTP_HEAD =
      """
      name: bad
      version: "1"
      capabilities: [network]
      """;

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "unknown field",
            SHELL_HEAD
                + """
                steps:
                  - id: a
                    kind: shell
                    tiemout: 5s
                    with: {argv: [echo, hi]}
                """,
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:7: steps[0].tiemout: unknown field 'tiemout'"),
        new Case(
            "missing name",
            """
            version: "1"
            steps:
              - id: a
                kind: transform
                with: {expression: "1"}
            """,
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:1: name: missing required field 'name'"),
        new Case(
            "bad step id",
            SHELL_HEAD
                + """
                steps:
                  - id: first-step
                    kind: shell
                    with: {argv: [echo, hi]}
                """,
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:5: steps[0].id: "),
        new Case(
            "input the kind does not take",
            SHELL_HEAD
                + "steps:\n  - id: a\n    kind: shell\n"
                + "    with: {argv: [echo, hi], shell: bash}\n",
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:7: steps[0].with.shell: kind shell takes no input 'shell'"),
        new Case(
            "unknown kind",
            SHELL_HEAD + "steps:\n  - id: a\n    kind: teleport\n",
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:6: steps[0].kind: must be one of shell, http, sql, mcp, transform, llm,"
                + " got \"teleport\""),
        new Case(
            "undeclared capability",
            SHELL_HEAD
                + "steps:\n  - id: a\n    kind: http\n    with: {url: \"http://127.0.0.1:1/\"}\n",
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:6: steps[0].kind: kind 'http' needs capability 'network'; declare it under"
                + " capabilities"),
        new Case(
            "bad jq",
            SHELL_HEAD
                + "steps:\n  - id: a\n    kind: transform\n    if: '. | | .'\n"
                + "    with: {expression: \"1\"}\n",
            args(),
            List.of(),
            "INVALID_MANIFEST",
            "{FILE}:7: steps[0].if: bad jq expression '. | | .': syntax error at column 5"),
        new Case(
            "missing required parameter",
            SHELL_HEAD
                + """
                parameters:
                  count: {type: integer, required: true, description: How many.}
                steps:
                  - id: a
                    kind: transform
                    with: {expression: ".params.count"}
                """,
            args(),
            List.of(),
            "INVALID_PARAMETERS",
            "parameter 'count': is required (integer; How many.)"),
        new Case(
            "wrong parameter type",
            SHELL_HEAD
                + """
                parameters:
                  count: {type: integer, required: true}
                steps:
                  - id: a
                    kind: transform
                    with: {expression: ".params.count"}
                """,
            args("count", "123"),
            List.of("count=abc"),
            "INVALID_PARAMETERS",
            "parameter 'count': expected an integer, got string \"123\""),
        new Case(
            "program not on PATH",
            SHELL_HEAD
                + "steps:\n  - id: a\n    kind: shell\n"
                + "    with: {argv: [no-such-program-for-cortex, x]}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': program 'no-such-program-for-cortex' is not on PATH"),
        new Case(
            "shell step with both argv and script",
            SHELL_HEAD
                + "steps:\n  - id: a\n    kind: shell\n"
                + "    with: {argv: [echo, x], script: 'echo y'}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': give exactly one of argv and script"),
        new Case(
            "shell step with neither argv nor script",
            SHELL_HEAD + "steps:\n  - id: a\n    kind: shell\n    with: {cwd: /}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': give exactly one of argv and script"),
        new Case(
            "shell step whose program is empty",
            SHELL_HEAD + "steps:\n  - id: a\n    kind: shell\n    with: {argv: ['', x]}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': argv needs a program"),
        new Case(
            "http step whose url is no valid URL",
            HTTP_HEAD
                + "steps:\n  - id: a\n    kind: http\n"
                + "    with: {url: 'http://exa mple.com/'}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': url 'http://exa mple.com/' is not a valid URL"),
        new Case(
            "http step whose url has no host",
            HTTP_HEAD + "steps:\n  - id: a\n    kind: http\n    with: {url: 'http:///x'}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': url 'http:///x' is not an http or https URL with a host"),
        new Case(
            "http step setting a header the client may not set",
            HTTP_HEAD
                + "steps:\n  - id: a\n    kind: http\n"
                + "    with: {url: 'http://127.0.0.1:1/', headers: {Host: example.com}}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': header 'Host' cannot be set: restricted header name: \"Host\""),
        new Case(
            "http step with a header value that holds a line break",
            HTTP_HEAD
                + "steps:\n  - id: a\n    kind: http\n"
                + "    with: {url: 'http://127.0.0.1:1/', headers: {X-Note: \"a\\nb\"}}\n",
            args(),
            List.of(),
            "PREFLIGHT_FAILED",
            "step 'a': header 'X-Note' cannot be set: "),
        new Case(
            "literal input of the wrong type",
            SHELL_HEAD + "steps:\n  - id: a\n    kind: shell\n" + "    with: {argv: [ls, -1]}\n",
            args(),
            List.of(),
            "INVALID_MANIFEST",
            ":7: steps[0].with.argv[1]: integer found, string expected"),
        new Case(
            "no such workflow",
            null,
            args(),
            List.of(),
            "INVALID_REFERENCE",
            "no workflow file '{FILE}'"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badWorkflow_checkRunAndCliAgree_andNothingIsRecorded(Case c) throws Exception {
    String file =
        c.yaml() == null
            ? manifests.resolve("absent.yaml").toString()
            : WorkflowServer.manifest(manifests, c.name().replace(' ', '-'), c.yaml());
    int runsBefore = server.runCount();

    Outcome checked = server.fails("check", args("workflow", file, "params", c.params()), c.code());
    Outcome ran = server.fails("run", args("workflow", file, "params", c.params()), c.code());
    List<String> cli = new ArrayList<>(List.of("check", file));
    c.cliParams().forEach(p -> cli.addAll(List.of("--param", p)));
    CortexProcess.Finished printed =
        CortexProcess.run(CortexProcess.env(home), cli.toArray(String[]::new));

    assertThat(checked.errorMessage()).contains(c.expected().replace("{FILE}", file));
    assertThat(ran.errorMessage()).isEqualTo(checked.errorMessage());
    assertThat(printed.exitCode()).isEqualTo(1);
    assertThat(printed.stdout()).isEmpty();
    assertThat(printed.stderr()).startsWith("cortex: " + c.code() + ": ");
    if (c.sameOnTheCli()) {
      assertThat(printed.stderr())
          .isEqualTo("cortex: " + c.code() + ": " + checked.errorMessage() + "\n");
    }
    assertThat(server.runCount()).isEqualTo(runsBefore);
    assertThat(server.ok("runs_list", args()).path("count").asInt()).isEqualTo(runsBefore);
  }

  @Test
  void manyProblems_areAllReported_eachWithFileLineAndField() throws Exception {
    String file =
        WorkflowServer.manifest(
            manifests,
            "many",
            """
            name: many
            version: "1"
            steps:
              - id: a
                kind: shell
                tiemout: 5s
              - id: b
                kind: teleport
            """);

    Outcome checked = server.fails("check", args("workflow", file), "INVALID_MANIFEST");
    Outcome ran = server.fails("run", args("workflow", file), "INVALID_MANIFEST");

    assertThat(ran.errorMessage()).isEqualTo(checked.errorMessage());
    List<String> lines = checked.errorMessage().lines().skip(1).toList();
    assertThat(lines).hasSizeGreaterThanOrEqualTo(2);
    assertThat(lines).allMatch(l -> l.startsWith(file + ":"), "every line names the file");
    assertThat(lines).anyMatch(l -> l.startsWith(file + ":6: steps[0].tiemout: "));
    assertThat(lines).anyMatch(l -> l.startsWith(file + ":8: steps[1].kind: "));
  }

  @Test
  void llmStepWithoutAnApiKey_orWithABadBaseUrl_failsCheck_andRunsNothing(@TempDir Path own)
      throws Exception {
    String anthropic =
        WorkflowServer.manifest(
            own,
            "ask",
            """
            name: ask
            version: "1"
            capabilities: [network]
            steps:
              - id: answer
                kind: llm
                with: {model: claude-sonnet-4-5, prompt: Hello}
            """);
    String openai =
        WorkflowServer.manifest(
            own,
            "ask-openai",
            """
            name: ask-openai
            version: "1"
            capabilities: [network]
            steps:
              - id: answer
                kind: llm
                with: {provider: openai, model: gpt-4o, prompt: Hello}
            """);
    Map<String, String> env =
        Map.of(
            "ANTHROPIC_API_KEY", "",
            "OPENAI_API_KEY", "sk-test",
            "CORTEX_OPENAI_BASE_URL", "ftp://models.example");
    try (WorkflowServer alone = WorkflowServer.start(own.resolve("home"), env)) {
      Outcome noKey = alone.fails("check", args("workflow", anthropic), "PREFLIGHT_FAILED");
      Outcome badUrl = alone.fails("run", args("workflow", openai), "PREFLIGHT_FAILED");

      assertThat(noKey.errorMessage())
          .contains("step 'answer': no API key: set the environment variable ANTHROPIC_API_KEY");
      assertThat(badUrl.errorMessage())
          .contains(
              "step 'answer': CORTEX_OPENAI_BASE_URL is not an http or https URL:"
                  + " 'ftp://models.example'");
      assertThat(alone.runCount()).isZero();
    }
  }

  @Test
  void argumentsOutsideTheToolSchema_areInvalidArgument_forCheckAndRun() {
    String file = WorkflowServer.example("fan-out");
    for (String tool : List.of("check", "run")) {
      Outcome unknown =
          server.fails(tool, args("workflow", file, "parms", args()), "INVALID_ARGUMENT");
      Outcome notAnObject =
          server.fails(tool, args("workflow", file, "params", "x"), "INVALID_ARGUMENT");

      assertThat(unknown.errorMessage()).contains("parms");
      assertThat(notAnObject.errorMessage()).contains("params");
    }
    assertThat(server.runCount()).isZero();
  }
}
