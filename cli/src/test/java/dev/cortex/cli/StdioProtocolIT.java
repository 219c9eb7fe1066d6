package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Raw JSON-RPC lines against {@code cortex mcp} on stdio: framing, bad input, end of input. */
class StdioProtocolIT {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  @TempDir Path home;

  /** A server on stdio driven line by line. */
  final class Session implements AutoCloseable {
    final Process process;
    final OutputStream stdin;
    final BufferedReader stdout;
    final StringBuffer stderr = new StringBuffer();

    Session(Map<String, String> env, String... args) throws IOException {
      process = CortexProcess.start(env, args);
      stdin = process.getOutputStream();
      stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      Thread pump =
          new Thread(
              () -> {
                try {
                  stderr.append(
                      new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                  // process ended
                }
              });
      pump.setDaemon(true);
      pump.start();
    }

    void send(String line) throws IOException {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    }

    JsonNode receive() throws IOException {
      String line = stdout.readLine();
      assertThat(line).as("server closed stdout; stderr: %s", stderr).isNotNull();
      return JSON.readTree(line);
    }

    JsonNode initialize() throws IOException {
      send(INITIALIZE);
      JsonNode result = receive();
      send(INITIALIZED);
      return result;
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  Map<String, String> env() {
    return CortexProcess.env(home);
  }

  @Test
  void malformedLine_isAnsweredWithParseError_andServerKeepsServing() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();

      s.send("this is {not json");
      JsonNode error = s.receive();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":{\"timezone\":\"UTC\"}}}");
      JsonNode answer = s.receive();

      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32700);
      assertThat(error.path("id").isNull()).isTrue();
      assertThat(answer.path("id").asInt()).isEqualTo(7);
      assertThat(answer.path("result").path("structuredContent").path("timezone").asString())
          .isEqualTo("UTC");
    }
  }

  @Test
  void batch_isRefused_andServerKeepsServing() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();

      s.send("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
      JsonNode refused = s.receive();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
      JsonNode pong = s.receive();

      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asString()).contains("batch");
      assertThat(pong.path("id").asInt()).isEqualTo(3);
      assertThat(pong.has("result")).isTrue();
    }
  }

  @Test
  void jsonThatIsNotJsonRpc_isInvalidRequestWithItsId() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();

      s.send("{\"id\":9,\"hello\":\"world\"}");
      JsonNode error = s.receive();

      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(error.path("id").asInt()).isEqualTo(9);
    }
  }

  @Test
  void toolsCallWithMalformedParams_isInvalidParamsWithoutInternals() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();

      s.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":\"x\"}");
      JsonNode notObject = s.receive();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\"}");
      JsonNode missing = s.receive();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":\"x\"}}");
      JsonNode badArguments = s.receive();

      for (JsonNode error : List.of(notObject, missing, badArguments)) {
        assertThat(error.path("error").path("code").asInt()).as(error.toString()).isEqualTo(-32602);
        assertThat(error.toString())
            .doesNotContain("Exception")
            .doesNotContain("io.modelcontextprotocol")
            .doesNotContain("jackson");
      }
      assertThat(List.of(notObject, missing, badArguments))
          .extracting(n -> n.path("id").asInt())
          .containsExactly(11, 12, 13);
    }
  }

  @Test
  void unknownTool_isProtocolErrorNamingIt() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();

      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\",\"arguments\":{}}}");
      JsonNode error = s.receive();

      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(error.toString()).contains("no_such_tool");
    }
  }

  @Test
  void endOfInput_exitsPromptlyWithCodeZero_afterAnsweringEveryRequest() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core,evidence")) {
      s.send(INITIALIZE);
      s.send(INITIALIZED);
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"cortex_health\",\"arguments\":{}}}");
      s.stdin.close();

      List<JsonNode> lines = new ArrayList<>();
      String line;
      while ((line = s.stdout.readLine()) != null) {
        lines.add(JSON.readTree(line));
      }

      assertThat(s.process.waitFor(20, TimeUnit.SECONDS)).as("exited after stdin closed").isTrue();
      assertThat(s.process.exitValue()).isZero();
      assertThat(lines).extracting(n -> n.path("id").asInt()).containsExactly(1, 2);
      assertThat(lines).allSatisfy(n -> assertThat(n.path("jsonrpc").asString()).isEqualTo("2.0"));
    }
  }

  @Test
  void notATerminal_printsNoConnectionHint() throws Exception {
    try (Session s = new Session(env(), "mcp", "--bundles", "core")) {
      s.initialize();
      s.stdin.close();
      s.process.waitFor(20, TimeUnit.SECONDS);

      assertThat(s.stderr.toString()).doesNotContain("mcpServers");
    }
  }

  @Test
  void bundlesFromEnvironment_jsonArray_selectsThoseGroups() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "[\"cortex-core\"]");

    assertThat(toolNames(env)).containsExactlyElementsOf(CORE_TOOLS);
  }

  @Test
  void bundlesFromEnvironment_commaList_selectsThoseGroups() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "evidence, core");

    assertThat(toolNames(env))
        .startsWith("cortex_health")
        .endsWith("current_time")
        .doesNotHaveDuplicates();
  }

  /** The tools of the core group, in their order. */
  static final java.util.List<String> CORE_TOOLS =
      List.of(
          "remote_bash",
          "remote_read",
          "remote_write",
          "remote_edit",
          "remote_glob",
          "remote_grep",
          "remote_job",
          "current_time");

  @Test
  void bundlesFlag_winsOverEnvironment() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "evidence");

    assertThat(toolNames(env, "--bundles", "core")).containsExactlyElementsOf(CORE_TOOLS);
  }

  @Test
  void noSelection_servesTheDefaultComposition() throws Exception {
    assertThat(toolNames(env()))
        .containsExactly(
            "cortex_health",
            "cortex_create_claim",
            "cortex_add_evidence",
            "cortex_track_assumption",
            "cortex_update_assumption",
            "cortex_review",
            "cortex_get_context",
            "check",
            "show",
            "run",
            "runs_list",
            "runs_show",
            "status");
  }

  @Test
  void allowlist_filtersRegisteredTools() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_TOOL_ALLOWLIST", "mcp__cortex-core__current_time");

    assertThat(toolNames(env, "--bundles", "core,evidence")).containsExactly("current_time");
  }

  @Test
  void allowlistedToolOutsideSelection_stopsStartupWithClearMessage() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_TOOL_ALLOWLIST", "[\"current_time\",\"cortex_review\"]");

    CortexProcess.Finished run = CortexProcess.run(env, "mcp", "--bundles", "core");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("cortex_review").contains("core").contains("current_time");
  }

  @Test
  void unknownGroup_stopsStartupNamingKnownGroups() throws Exception {
    CortexProcess.Finished run = CortexProcess.run(env(), "mcp", "--bundles", "core,telepathy");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr())
        .contains("telepathy")
        .contains("core, ext, workers")
        .contains("evidence, workflows");
  }

  private List<String> toolNames(Map<String, String> env, String... bundleArgs) throws Exception {
    String[] args = new String[1 + bundleArgs.length];
    args[0] = "mcp";
    System.arraycopy(bundleArgs, 0, args, 1, bundleArgs.length);
    try (Session s = new Session(env, args)) {
      s.initialize();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
      List<String> names = new ArrayList<>();
      s.receive().path("result").path("tools").forEach(t -> names.add(t.path("name").asString()));
      return names;
    }
  }
}
