package dev.cortex.workflows.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestLoaderTest {
  private static final Path MANIFESTS = Path.of("src/test/resources/manifests");

  private static List<ManifestProblem> problems(String yaml) {
    ManifestException e =
        catchThrowableOfType(
            ManifestException.class, () -> ManifestLoader.parse("flow.yaml", yaml));
    assertThat(e).as("expected problems").isNotNull();
    return e.problems();
  }

  private static final String HEAD =
      """
      name: t
      version: "1"
      capabilities: [shell]
      """;

  @Test
  void load_everyKind_buildsRecords() throws Exception {
    Manifest manifest = ManifestLoader.load(MANIFESTS.resolve("every-kind.yaml"));

    assertThat(manifest.name()).isEqualTo("every-kind");
    assertThat(manifest.version()).isEqualTo("1.2.0");
    assertThat(manifest.description()).isEqualTo("One step of each kind.");
    assertThat(manifest.parameters()).containsOnlyKeys("repo", "limit", "mode", "tags");
    assertThat(manifest.parameters().get("repo"))
        .isEqualTo(
            new ParameterSpec(
                ParameterType.PATH, true, null, null, null, List.of(), "Where to look."));
    assertThat(manifest.parameters().get("limit"))
        .isEqualTo(new ParameterSpec(ParameterType.INTEGER, false, 10, 1.0, 100.0, null, null));
    assertThat(manifest.parameters().get("mode").values()).containsExactly("fast", "thorough");
    assertThat(manifest.parameters().get("tags").defaultValue()).isEqualTo(List.of());
    assertThat(manifest.capabilities())
        .containsExactly("shell", "network", "database", "mcp:notes", "filesystem.read");
    assertThat(manifest.servers())
        .containsEntry("notes", new ServerSpec(List.of("cortex", "mcp", "--bundles", "core"), null))
        .containsEntry("remote", new ServerSpec(null, "https://example.com/mcp"));
    assertThat(manifest.steps())
        .extracting(Step::id, Step::kind)
        .containsExactly(
            tuple("list", StepKind.SHELL),
            tuple("fetch", StepKind.HTTP),
            tuple("rows", StepKind.SQL),
            tuple("note", StepKind.MCP),
            tuple("shape", StepKind.TRANSFORM),
            tuple("summary", StepKind.LLM));

    Step list = manifest.steps().get(0);
    assertThat(list.with())
        .isEqualTo(
            Map.of(
                "argv",
                List.of("git", "-C", "${{ .params.repo }}", "log", "--oneline"),
                "parse_json",
                false));
    assertThat(list.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(list.retry()).isEqualTo(new Retry(3, Duration.ofMillis(500)));
    assertThat(list.concurrency()).isEqualTo(1);
    assertThat(manifest.steps().get(1).ifExpression()).contains(".params.mode == \"thorough\"");
    Step note = manifest.steps().get(3);
    assertThat(note.forEachExpression()).contains(".steps.list.stdout | split(\"\\n\")");
    assertThat(note.concurrency()).isEqualTo(4);
    assertThat(manifest.steps().get(5).timeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(manifest.steps().get(5).retry()).isEqualTo(Retry.NONE);
  }

  @Test
  void parse_unknownField_namesFieldAndLine() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: shell
                        tiemout: 5s
                    """))
        .containsExactly(
            new ManifestProblem("flow.yaml", 7, "steps[0].tiemout", "unknown field 'tiemout'"));
  }

  @Test
  void parse_wrongType_namesFieldAndLine() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: shell
                        concurrency: many
                        for_each: "[1]"
                    """))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.line()).isEqualTo(7);
              assertThat(p.field()).isEqualTo("steps[0].concurrency");
              assertThat(p.message()).isEqualTo("expected an integer, got \"many\"");
            });
  }

  @Test
  void parse_missingRequiredField_namesField() {
    assertThat(
            problems(
                "name: t\nsteps:\n  - id: a\n    kind: transform\n    with: {expression: '.'}\n"))
        .containsExactly(
            new ManifestProblem("flow.yaml", 1, "version", "missing required field 'version'"));
  }

  @Test
  void parse_missingStepKind_pointsAtStep() {
    assertThat(problems("name: t\nversion: '1'\nsteps:\n  - id: a\n"))
        .containsExactly(
            new ManifestProblem("flow.yaml", 4, "steps[0].kind", "missing required field 'kind'"));
  }

  @Test
  void parse_unknownKind_listsKinds() {
    assertThat(problems(HEAD + "steps:\n  - id: a\n    kind: teleport\n"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.line()).isEqualTo(6);
              assertThat(p.field()).isEqualTo("steps[0].kind");
              assertThat(p.message())
                  .isEqualTo(
                      "must be one of shell, http, sql, mcp, transform, llm, got \"teleport\"");
            });
  }

  @Test
  void parse_undeclaredCapability_namesCapability() {
    assertThat(
            problems(
                HEAD + "steps:\n  - id: a\n    kind: http\n    with: {url: https://example.com}\n"))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml",
                6,
                "steps[0].kind",
                "kind 'http' needs capability 'network'; declare it under capabilities"));
  }

  @Test
  void parse_noCapabilitiesAtAll_reportsShell() {
    assertThat(problems("name: t\nversion: '1'\nsteps:\n  - id: a\n    kind: shell\n"))
        .extracting(ManifestProblem::line, ManifestProblem::field)
        .containsExactly(tuple(5, "steps[0].kind"));
  }

  @Test
  void parse_mcpStepWithUndeclaredServer_namesServer() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                capabilities: ["mcp:notes"]
                servers:
                  other: {url: "http://localhost:1/mcp"}
                steps:
                  - id: a
                    kind: mcp
                    with:
                      server: notes
                      tool: x
                """))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml",
                10,
                "steps[0].with.server",
                "server 'notes' is not declared under servers"));
  }

  @Test
  void parse_mcpStepWithoutCapability_namesMcpCapability() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                servers:
                  notes: {command: [notes-server]}
                steps:
                  - id: a
                    kind: mcp
                    with: {server: notes, tool: x}
                """))
        .extracting(ManifestProblem::line, ManifestProblem::message)
        .containsExactly(
            tuple(7, "kind 'mcp' needs capability 'mcp:notes'; declare it under capabilities"));
  }

  @Test
  void parse_badJq_namesExpression() {
    assertThat(
            problems(
                HEAD
                    + "steps:\n  - id: a\n    kind: transform\n    if: '. | | .'\n    with: {expression: '.'}\n"))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.line()).isEqualTo(7);
              assertThat(p.field()).isEqualTo("steps[0].if");
              assertThat(p.message())
                  .isEqualTo("bad jq expression '. | | .': syntax error at column 5");
            });
  }

  @Test
  void parse_badJqInTemplate_namesWithField() {
    assertThat(
            problems(
                HEAD
                    + "steps:\n  - id: a\n    kind: transform\n    with:\n"
                    + "      expression: \"x ${{ .[ }} y\"\n"))
        .extracting(ManifestProblem::line, ManifestProblem::field)
        .containsExactly(tuple(8, "steps[0].with.expression"));
  }

  @Test
  void parse_referenceToLaterStep_isAnError() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: transform
                        with: {expression: "${{ .steps.b }}"}
                      - id: b
                        kind: transform
                        with: {expression: '.'}
                    """))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml",
                7,
                "steps[0].with.expression",
                "refers to step 'b', which runs after this step"));
  }

  @Test
  void parse_referenceToUnknownStepOrParameter_isAnError() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: transform
                        with: {expression: '.'}
                        for_each: .steps.nowhere + [.params.missing]
                    """))
        .extracting(ManifestProblem::message)
        .containsExactly(
            "refers to undeclared parameter 'missing'", "refers to unknown step 'nowhere'");
  }

  @Test
  void parse_duplicateStepId_pointsAtSecond() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: transform
                        with: {expression: '.'}
                      - id: a
                        kind: transform
                        with: {expression: '.'}
                    """))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml", 8, "steps[1].id", "duplicate step id 'a' (first at line 5)"));
  }

  @Test
  void parse_defaultOfWrongType_namesDefault() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                parameters:
                  count:
                    type: integer
                    default: "10"
                steps:
                  - id: a
                    kind: transform
                    with: {expression: '.'}
                """))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml",
                6,
                "parameters.count.default",
                "default expected an integer, got string \"10\""));
  }

  @Test
  void parse_inconsistentParameters_reportEach() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                parameters:
                  mode: {type: enum}
                  n: {type: number, min: 5, max: 1}
                  s: {type: string, max: 3}
                  e: {type: enum, values: [a, b], default: c}
                steps:
                  - id: a
                    kind: transform
                    with: {expression: '.'}
                """))
        .extracting(ManifestProblem::line, ManifestProblem::field, ManifestProblem::message)
        .containsExactly(
            tuple(4, "parameters.mode.type", "an enum parameter needs values"),
            tuple(5, "parameters.n.max", "max 1 is less than min 5"),
            tuple(
                6, "parameters.s.max", "max applies to integer, number and array parameters only"),
            tuple(7, "parameters.e.default", "default must be one of a, b, got \"c\""));
  }

  @Test
  void parse_yamlSyntaxError_oneProblemWithParserLine() throws Exception {
    String yaml = java.nio.file.Files.readString(MANIFESTS.resolve("syntax-error.yaml"));
    assertThat(problems(yaml))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.line()).isEqualTo(6);
              assertThat(p.field()).isEmpty();
              assertThat(p.message())
                  .isEqualTo(
                      "YAML syntax error: while parsing a flow sequence: expected ',' or ']', but"
                          + " got }");
            });
  }

  @Test
  void parse_duplicateYamlKey_isAnError() {
    assertThat(
            problems(
                "name: t\nversion: '1'\nname: u\nsteps:\n  - {id: a, kind: transform, with: {expression: '.'}}\n"))
        .containsExactly(
            new ManifestProblem("flow.yaml", 3, "name", "duplicate key (first at line 1)"));
  }

  @Test
  void parse_notAMapping_isOneProblem() {
    assertThat(problems("- just\n- a list\n"))
        .extracting(ManifestProblem::line, ManifestProblem::field)
        .containsExactly(tuple(1, ""));
  }

  @Test
  void load_severalErrors_reportsAllInLineOrder() throws Exception {
    Path file = MANIFESTS.resolve("several-errors.yaml");
    ManifestException e =
        catchThrowableOfType(ManifestException.class, () -> ManifestLoader.load(file));

    assertThat(e.problems())
        .extracting(ManifestProblem::line, ManifestProblem::field)
        .containsExactly(
            tuple(2, "version"),
            tuple(3, "colour"),
            tuple(7, "parameters.count.default"),
            tuple(10, "steps[0].kind"),
            tuple(12, "steps[0].with.argv[1]"),
            tuple(14, "steps[1].kind"),
            tuple(15, "steps[2]"),
            tuple(15, "steps[2].id"),
            tuple(17, "steps[2].if"));
    assertThat(e.getMessage().lines().toList())
        .hasSize(9)
        .first()
        .asString()
        .startsWith(file + ":2: version: ");
  }

  @Test
  void parse_badDurationAndCapability_explainSyntax() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                capabilities: [shel]
                steps:
                  - id: a
                    kind: transform
                    with: {expression: '.'}
                    timeout: 5 minutes
                """))
        .extracting(ManifestProblem::line, ManifestProblem::field, ManifestProblem::message)
        .containsExactly(
            tuple(
                3,
                "capabilities[0]",
                "must be one of shell, network, filesystem.read, filesystem.write, database,"
                    + " mcp:<server>, got \"shel\""),
            tuple(
                8,
                "steps[0].timeout",
                "must be a duration such as 500ms, 30s, 5m or 1h, got \"5 minutes\""));
  }

  @Test
  void parse_serverWithBothCommandAndUrl_isAnError() {
    assertThat(
            problems(
                """
                name: t
                version: "1"
                servers:
                  both: {command: [x], url: "https://h/mcp"}
                steps:
                  - {id: a, kind: transform, with: {expression: '.'}}
                """))
        .containsExactly(
            new ManifestProblem(
                "flow.yaml",
                4,
                "servers.both",
                "a server needs exactly one of command (stdio) or url (HTTP)"));
  }

  @Test
  void render_leavesOutEmptyField() {
    assertThat(new ManifestProblem("f.yaml", 3, "", "bad").render()).isEqualTo("f.yaml:3: bad");
    assertThat(new ManifestProblem("f.yaml", 3, "steps[0].id", "bad").render())
        .isEqualTo("f.yaml:3: steps[0].id: bad");
  }

  @Test
  void parse_inputsTheKindDoesNotTakeOrNeeds_areNamed() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: get
                        kind: http
                        with: {address: 'https://example.com'}
                    """))
        .extracting(ManifestProblem::line, ManifestProblem::field, ManifestProblem::message)
        .contains(
            tuple(
                7,
                "steps[0].with.address",
                "kind http takes no input 'address' (it takes: url, method, headers, body,"
                    + " fail_on_status)"),
            tuple(7, "steps[0].with", "kind http needs with.url"));
  }

  @Test
  void parse_transformExpression_isCheckedAsJq() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: a
                        kind: transform
                        with: {expression: '.steps.later | | .'}
                      - id: later
                        kind: transform
                        with: {expression: '.params.nope'}
                    """))
        .extracting(ManifestProblem::field, ManifestProblem::message)
        .containsExactly(
            tuple(
                "steps[0].with.expression",
                "bad jq expression '.steps.later | | .': syntax error at column 16"),
            tuple("steps[1].with.expression", "refers to undeclared parameter 'nope'"));
  }

  @Test
  void parse_literalInputsOfTheWrongType_areNamedWhereTheyAre() {
    assertThat(
            problems(
                HEAD
                    + """
                    steps:
                      - id: list
                        kind: shell
                        with:
                          argv: [ls, -1]
                          parse_json: "${{ true }}"
                          ok_exit_codes: yes
                    """))
        .extracting(ManifestProblem::line, ManifestProblem::field, ManifestProblem::message)
        .containsExactly(
            tuple(8, "steps[0].with.argv[1]", "integer found, string expected"),
            tuple(10, "steps[0].with.ok_exit_codes", "string found, array expected"));
  }
}
