package dev.cortex.e2e.mcp;

import static dev.cortex.testing.JsonRpcLines.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.ToolNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Raw JSON-RPC lines against {@code cortex mcp} on stdio: framing, bad input, end of input. */
class StdioProtocolIT {
  static final String INITIALIZE = JsonRpcLines.INITIALIZE;
  static final String INITIALIZED = JsonRpcLines.INITIALIZED;

  @TempDir Path home;

  Map<String, String> env() {
    return CortexProcess.env(home);
  }

  @Test
  void malformedLine_isAnsweredWithParseError_andServerKeepsServing() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send("this is {not json");
      JsonNode error = s.next();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":{\"timezone\":\"UTC\"}}}");
      JsonNode answer = s.next();

      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32700);
      assertThat(error.path("id").isNull()).isTrue();
      assertThat(answer.path("id").asInt()).isEqualTo(7);
      assertThat(answer.path("result").path("structuredContent").path("timezone").asString())
          .isEqualTo("UTC");
    }
  }

  @Test
  void batch_isRefused_andServerKeepsServing() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]");
      JsonNode refused = s.next();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
      JsonNode pong = s.next();

      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asString()).contains("batch");
      assertThat(pong.path("id").asInt()).isEqualTo(3);
      assertThat(pong.has("result")).isTrue();
    }
  }

  @Test
  void jsonThatIsNotJsonRpc_isInvalidRequestWithItsId() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send("{\"id\":9,\"hello\":\"world\"}");
      JsonNode error = s.next();

      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(error.path("id").asInt()).isEqualTo(9);
    }
  }

  @Test
  void toolsCallWithMalformedParams_isRefusedWithoutInternals() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":\"x\"}");
      JsonNode notObject = s.next();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\"}");
      JsonNode missing = s.next();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":\"x\"}}");
      JsonNode badArguments = s.next();

      assertThat(notObject.path("error").path("code").asInt())
          .as("params that are no structure: an invalid request")
          .isEqualTo(-32600);
      for (JsonNode error : List.of(missing, badArguments)) {
        assertThat(error.path("error").path("code").asInt()).as(error.toString()).isEqualTo(-32602);
      }
      for (JsonNode error : List.of(notObject, missing, badArguments)) {
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
  void unknownTool_isInvalidParamsNamingItWithCodeUnknownTool() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send(JsonRpcLines.toolsCall(4, "no_such_tool", "{}"));
      JsonNode error = s.next();

      assertThat(error.path("id").asInt()).isEqualTo(4);
      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(error.path("error").path("message").asString())
          .contains("no_such_tool")
          .contains("current_time")
          .doesNotContain("invalid_tool_name");
      assertThat(error.path("error").path("data").path("code").asString())
          .isEqualTo("UNKNOWN_TOOL");
    }
  }

  // ---- JSON-RPC 2.0 and MCP 2025-11-25 edges

  @Test
  void requestBeforeInitialize_isAnsweredInvalidRequest_pingIsAnswered() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", ping(2));
      JsonNode early = s.next();
      JsonNode pong = s.next();
      s.send(INITIALIZE.replace("\"id\":1", "\"id\":3"));
      JsonNode initialized = s.next();

      assertThat(early.path("id").asInt()).isEqualTo(1);
      assertThat(early.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(early.path("error").path("message").asString()).contains("initialize");
      assertThat(pong.path("id").asInt()).isEqualTo(2);
      assertThat(pong.has("result")).isTrue();
      assertThat(initialized.path("result").has("serverInfo")).isTrue();
    }
  }

  @Test
  void methodThatIsNotAString_isInvalidRequest_withTheIdWhenThereIsOne() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send("{\"jsonrpc\":\"2.0\",\"method\":1}", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":1}");
      JsonNode withoutId = s.next();
      JsonNode withId = s.next();

      assertThat(withoutId.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(withoutId.path("id").isNull()).isTrue();
      assertThat(withId.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(withId.path("id").asInt()).isEqualTo(5);
    }
  }

  @Test
  void jsonrpcOtherThan2_isInvalidRequest() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");

      s.send(
          "{\"jsonrpc\":\"1.0\",\"id\":6,\"method\":\"ping\"}", "{\"id\":7,\"method\":\"ping\"}");
      JsonNode old = s.next();
      JsonNode missing = s.next();

      assertThat(List.of(old, missing))
          .allSatisfy(n -> assertThat(n.path("error").path("code").asInt()).isEqualTo(-32600));
      assertThat(List.of(old, missing)).extracting(n -> n.path("id").asInt()).containsExactly(6, 7);
    }
  }

  @Test
  void paginationCursor_onEveryList_isInvalidParams() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp")) {
      s.initialize("{}");
      List<String> lists = List.of("tools/list", "prompts/list", "resources/list");
      for (int i = 0; i < lists.size(); i++) {
        s.send(
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + (10 + i)
                + ",\"method\":\""
                + lists.get(i)
                + "\",\"params\":{\"cursor\":\"bogus\"}}");
      }

      for (int i = 0; i < lists.size(); i++) {
        JsonNode error = s.next();
        assertThat(error.path("id").asInt()).isEqualTo(10 + i);
        assertThat(error.path("error").path("code").asInt()).as(lists.get(i)).isEqualTo(-32602);
      }
      s.send("{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"prompts/list\",\"params\":{}}");
      assertThat(s.next().path("result").path("prompts").isArray()).isTrue();
    }
  }

  @Test
  void endOfInput_exitsPromptlyWithCodeZero_afterAnsweringEveryRequest() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core,evidence")) {
      s.send(INITIALIZE);
      s.send(INITIALIZED);
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"cortex_health\",\"arguments\":{}}}");
      s.closeInput();

      List<JsonNode> lines = s.rest();

      assertThat(s.process.waitFor(20, TimeUnit.SECONDS)).as("exited after stdin closed").isTrue();
      assertThat(s.process.exitValue()).isZero();
      assertThat(lines).extracting(n -> n.path("id").asInt()).containsExactly(1, 2);
      assertThat(lines).allSatisfy(n -> assertThat(n.path("jsonrpc").asString()).isEqualTo("2.0"));
    }
  }

  @Test
  void notATerminal_printsNoConnectionHint() throws Exception {
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core")) {
      s.initialize("{}");
      s.closeInput();
      assertThat(s.stderrAtExit()).doesNotContain("mcpServers");
    }
  }

  @Test
  void bundlesFromEnvironment_jsonArray_selectsThoseGroups() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "[\"cortex-core\"]");

    assertThat(toolNames(env)).containsExactlyElementsOf(ToolNames.CORE);
  }

  @Test
  void bundlesFromEnvironment_commaList_selectsThoseGroups() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "evidence, core");

    assertThat(toolNames(env))
        .startsWith("cortex_health")
        .endsWith("current_time", "agent", "agent_stop")
        .doesNotHaveDuplicates();
  }

  @Test
  void bundlesFlag_winsOverEnvironment() throws Exception {
    Map<String, String> env = env();
    env.put("CORTEX_MCP_BUNDLES", "evidence");

    assertThat(toolNames(env, "--bundles", "core")).containsExactlyElementsOf(ToolNames.CORE);
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
            "runs_cancel",
            "status");
  }

  @Test
  void instructions_tellHowTheServedGroupsFitTogether() throws Exception {
    String evidenceOnly;
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "evidence")) {
      evidenceOnly = s.initialize("{}").path("result").path("instructions").asString();
    }
    String defaults;
    try (RawStdio s = RawStdio.start(env(), "mcp")) {
      defaults = s.initialize("{}").path("result").path("instructions").asString();
    }
    String feishu;
    try (RawStdio s = RawStdio.start(env(), "mcp", "--bundles", "core,feishu")) {
      feishu = s.initialize("{}").path("result").path("instructions").asString();
    }

    assertThat(evidenceOnly)
        .contains("capability groups evidence ")
        .contains("cortex_create_claim", "cortex_review", "project_id")
        .doesNotContain("workflows:", "runs_show", "remote_bash");
    assertThat(defaults)
        .contains("evidence:", "workflows:", "detach: true", "cortex workflows save")
        .contains("Together: a workflow run can back a claim")
        .contains("isError");
    assertThat(feishu)
        .contains("core:", "remote_grep", "feishu:", "feishu_send_file")
        .doesNotContain("Together", "serves no tools");
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
        .contains("core, ext, interaction, web, slack, feishu, workers")
        .contains("evidence, workflows");
  }

  private List<String> toolNames(Map<String, String> env, String... bundleArgs) throws Exception {
    String[] args = new String[1 + bundleArgs.length];
    args[0] = "mcp";
    System.arraycopy(bundleArgs, 0, args, 1, bundleArgs.length);
    try (RawStdio s = RawStdio.start(env, args)) {
      s.initialize("{}");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
      List<String> names = new ArrayList<>();
      s.next().path("result").path("tools").forEach(t -> names.add(t.path("name").asString()));
      return names;
    }
  }
}
