package dev.cortex.workflows.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.testing.Eventually;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ServerSpec;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class McpActivityTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  static final ActivityInput.Expressions NO_EXPRESSIONS =
      new ActivityInput.Expressions() {
        @Override
        public JsonNode evaluate(String expression) throws ActivityFailure {
          throw new ActivityFailure("jq", "no expressions in this test", null, false);
        }

        @Override
        public JsonNode evaluate(String expression, JsonNode input) throws ActivityFailure {
          throw new ActivityFailure("jq", "no expressions in this test", null, false);
        }
      };

  @TempDir Path temp;

  private final ByteArrayOutputStream serverLog = new ByteArrayOutputStream();
  private final McpActivity activity =
      new McpActivity(new PrintStream(serverLog, true, StandardCharsets.UTF_8));
  private final RunScope scope = new RunScope();
  private ActivityEnvironment environment;

  @BeforeEach
  void setUp() {
    Map<String, String> variables = new HashMap<>();
    variables.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    variables.put("CORTEX_TEST_MARK", "marked");
    environment =
        new ActivityEnvironment(
            new CortexHome(temp, temp.resolve("data")), variables, Clock.systemUTC());
  }

  @AfterEach
  void tearDown() {
    scope.close();
  }

  @Test
  void run_structuredContent_outputIsTheStructuredJson() throws Exception {
    ActivityResult result =
        activity.run(input(Map.of("server", "srv", "tool", "echo", "arguments", Map.of("q", "x"))));

    assertThat(result.output().path("arguments").path("q").asString()).isEqualTo("x");
    assertThat(result.output().path("calls").asInt()).isEqualTo(1);
    assertThat(result.summary()).isEqualTo("tool echo: object with 3 keys");
    assertThat(result.cost()).isEqualTo(Cost.ZERO);
  }

  @Test
  void run_serverStderr_goesToTheServerLogNotStdout() throws Exception {
    activity.run(input(Map.of("server", "srv", "tool", "echo")));

    Eventually.until(
        "the test server's state",
        DEADLINE,
        () -> serverLog.toString(StandardCharsets.UTF_8).contains("test server starting"));
    assertThat(serverLog.toString(StandardCharsets.UTF_8))
        .contains("[mcp srv] test server starting");
  }

  @Test
  void run_textContent_outputIsTheText() throws Exception {
    ActivityResult result =
        activity.run(
            input(Map.of("server", "srv", "tool", "text", "arguments", Map.of("name", "cortex"))));

    assertThat(result.output().isString()).isTrue();
    assertThat(result.output().asString()).isEqualTo("hello cortex");
    assertThat(result.summary()).isEqualTo("tool text: 12 B text");
  }

  @Test
  void run_textContentThatIsJson_outputIsTheJson() throws Exception {
    ActivityResult result = activity.run(input(Map.of("server", "srv", "tool", "json_text")));

    assertThat(result.output()).isEqualTo(Json.mapper().readTree("{\"a\":1,\"b\":[1,2]}"));
    assertThat(result.summary()).isEqualTo("tool json_text: object with 2 keys");
  }

  @Test
  void run_environmentVariables_reachTheServer() throws Exception {
    ActivityResult result =
        activity.run(
            input(
                Map.of(
                    "server",
                    "srv",
                    "tool",
                    "env",
                    "arguments",
                    Map.of("name", "CORTEX_TEST_MARK"))));

    assertThat(result.output().path("value").asString()).isEqualTo("marked");
  }

  @Test
  void run_isError_failsWithMcpErrorNotRetryable() {
    assertThatThrownBy(
            () ->
                activity.run(
                    input(
                        Map.of("server", "srv", "tool", "fail", "arguments", Map.of("repeat", 2)))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("mcp_error");
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage()).isEqualTo("tool fail: it broke. it broke.");
            });
  }

  @Test
  void run_isErrorWithLongText_truncatesTheMessage() {
    assertThatThrownBy(
            () ->
                activity.run(
                    input(
                        Map.of(
                            "server", "srv", "tool", "fail", "arguments", Map.of("repeat", 200)))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("mcp_error");
              assertThat(f.getMessage()).hasSizeLessThan(520).endsWith("…");
              assertThat(f.output().asString()).hasSizeGreaterThan(1000);
            });
  }

  @Test
  void run_unknownTool_failsWithMcpError() {
    assertThatThrownBy(() -> activity.run(input(Map.of("server", "srv", "tool", "nope"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("mcp_error");
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage()).startsWith("tool nope: ").contains("nope");
            });
  }

  @Test
  void run_severalStepsInOneRun_startTheServerOnce() throws Exception {
    JsonNode first = activity.run(input(Map.of("server", "srv", "tool", "echo"))).output();
    activity.run(input(Map.of("server", "srv", "tool", "text")));
    JsonNode third = activity.run(input(Map.of("server", "srv", "tool", "echo"))).output();

    assertThat(first.path("calls").asInt()).isEqualTo(1);
    assertThat(third.path("calls").asInt()).isEqualTo(2);
    assertThat(third.path("pid").asLong()).isEqualTo(first.path("pid").asLong());
  }

  @Test
  void close_runScope_stopsTheServerProcess() throws Exception {
    long pid =
        activity.run(input(Map.of("server", "srv", "tool", "echo"))).output().path("pid").asLong();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

    scope.close();

    Eventually.until(
        "the test server's state",
        DEADLINE,
        () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void run_programMissing_failsUnavailableAtOnce() {
    Path missing = temp.resolve("no-such-server");
    ActivityInput input =
        input(
            Map.of("srv", new ServerSpec(List.of(missing.toString()), null)),
            Map.of("server", "srv", "tool", "echo"),
            null);

    assertThatThrownBy(() -> activity.run(input))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("mcp_unavailable");
              assertThat(f.retryable()).isTrue();
              assertThat(f.getMessage())
                  .isEqualTo(
                      "server 'srv' did not start: command '"
                          + missing
                          + "' is not an executable file");
            });
  }

  @Test
  void run_serverExitsAtStart_failsUnavailableWithItsStderrAndForgetsTheClient() {
    String java = ProcessHandle.current().info().command().orElseThrow();
    ActivityInput input =
        input(
            Map.of("srv", new ServerSpec(List.of(java, "cortex.NoSuchMain"), null)),
            Map.of("server", "srv", "tool", "echo"),
            Duration.ofSeconds(3));

    assertThatThrownBy(() -> activity.run(input))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("mcp_unavailable");
              assertThat(f.retryable()).isTrue();
              assertThat(f.getMessage())
                  .startsWith("server 'srv' did not start: no answer in time")
                  .contains("cortex.NoSuchMain");
            });
    AutoCloseable marker = () -> {};
    assertThat(scope.resource("mcp:srv", AutoCloseable.class, () -> marker)).isSameAs(marker);
  }

  @Test
  void run_stepTimeout_failsWithTimeout() throws Exception {
    activity.run(input(Map.of("server", "srv", "tool", "echo")));
    ActivityInput slow =
        input(servers(), Map.of("server", "srv", "tool", "slow"), Duration.ofMillis(300));

    assertThatThrownBy(() -> activity.run(slow))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("timeout");
              assertThat(f.retryable()).isTrue();
            });
  }

  @Test
  void run_interrupted_stopsTheServerAndRethrows() throws Exception {
    long pid =
        activity.run(input(Map.of("server", "srv", "tool", "echo"))).output().path("pid").asLong();
    Path started = temp.resolve("started");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread runner =
        new Thread(
            () -> {
              try {
                activity.run(
                    input(
                        Map.of(
                            "server",
                            "srv",
                            "tool",
                            "slow",
                            "arguments",
                            Map.of("started", started.toString()))));
              } catch (Throwable t) {
                thrown.set(t);
              }
            });
    runner.start();
    Eventually.until("the test server's state", DEADLINE, () -> Files.exists(started));

    runner.interrupt();
    runner.join(DEADLINE.toMillis());

    assertThat(runner.isAlive()).isFalse();
    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    Eventually.until(
        "the test server's state",
        DEADLINE,
        () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void preflight_declaredServerWithExistingProgram_hasNoProblems() {
    Step step = step(Map.of("server", "srv", "tool", "echo"));

    assertThat(activity.preflight(step, manifest(servers(), step), environment)).isEmpty();
  }

  @Test
  void preflight_undeclaredServer_isAProblem() {
    Step step = step(Map.of("server", "other", "tool", "echo"));

    assertThat(activity.preflight(step, manifest(servers(), step), environment))
        .containsExactly("step 's1': server 'other' is not declared under servers");
  }

  @Test
  void preflight_programNotOnPath_isAProblem() {
    Step step = step(Map.of("server", "srv", "tool", "echo"));
    Map<String, ServerSpec> servers =
        Map.of("srv", new ServerSpec(List.of("cortex-no-such-program-xyz", "--stdio"), null));

    assertThat(activity.preflight(step, manifest(servers, step), environment))
        .containsExactly(
            "step 's1': server 'srv' command 'cortex-no-such-program-xyz' is not on the PATH");
  }

  @Test
  void preflight_programOnTheEnvironmentsPath_isFound() throws Exception {
    Path bin = Files.createDirectories(temp.resolve("bin"));
    Path program = Files.writeString(bin.resolve("my-mcp-server"), "#!/bin/sh\n");
    assertThat(program.toFile().setExecutable(true)).isTrue();
    ActivityEnvironment withBin =
        new ActivityEnvironment(
            environment.home(), Map.of("PATH", bin.toString()), Clock.systemUTC());
    Step step = step(Map.of("server", "srv", "tool", "echo"));
    Map<String, ServerSpec> servers = Map.of("srv", new ServerSpec(List.of("my-mcp-server"), null));

    assertThat(activity.preflight(step, manifest(servers, step), withBin)).isEmpty();
    assertThat(activity.preflight(step, manifest(servers, step), environment)).hasSize(1);
  }

  @Test
  void preflight_url_checksSyntaxOnly() {
    Step step = step(Map.of("server", "srv", "tool", "echo"));
    Map<String, ServerSpec> good = Map.of("srv", new ServerSpec(null, "http://127.0.0.1:9/mcp"));
    Map<String, ServerSpec> bad = Map.of("srv", new ServerSpec(null, "ftp:/nowhere"));

    assertThat(activity.preflight(step, manifest(good, step), environment)).isEmpty();
    assertThat(activity.preflight(step, manifest(bad, step), environment))
        .containsExactly("step 's1': server 'srv' url 'ftp:/nowhere' is not an http or https URL");
  }

  @Test
  void preflight_templatedServer_isSkipped() {
    Step step = step(Map.of("server", "${{ .params.server }}", "tool", "echo"));

    assertThat(activity.preflight(step, manifest(servers(), step), environment)).isEmpty();
  }

  @Test
  void inputSchema_isClosedAndNeedsServerAndTool() {
    assertThat(activity.inputSchema())
        .containsEntry("additionalProperties", false)
        .containsEntry("required", List.of("server", "tool"));
  }

  private ActivityInput input(Map<String, Object> with) {
    return input(servers(), with, null);
  }

  private ActivityInput input(
      Map<String, ServerSpec> servers, Map<String, Object> with, Duration timeout) {
    Step step = step(with);
    return new ActivityInput(
        step.id(),
        Json.tree(with),
        manifest(servers, step),
        timeout,
        environment,
        scope,
        NO_EXPRESSIONS);
  }

  private static Map<String, ServerSpec> servers() {
    String java = ProcessHandle.current().info().command().orElseThrow();
    List<String> command =
        List.of(java, "-cp", System.getProperty("java.class.path"), McpTestServer.class.getName());
    Map<String, ServerSpec> servers = new LinkedHashMap<>();
    servers.put("srv", new ServerSpec(command, null));
    return servers;
  }

  private static Step step(Map<String, Object> with) {
    return new Step("s1", StepKind.MCP, with, null, null, 1, null, null);
  }

  private static Manifest manifest(Map<String, ServerSpec> servers, Step step) {
    return new Manifest("t", "1", null, null, List.of("mcp:srv"), servers, List.of(step));
  }
}
