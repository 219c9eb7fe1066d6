package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.listed;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static dev.cortex.testing.SessionApi.kinds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.ToolNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Turns that call tools through the session's own MCP server (a real device client among them), the
 * records they leave, and what a session's composition gives its backend: groups, tools,
 * configuration file and environment.
 */
class CompositionIT {
  @TempDir static Path home;
  @TempDir static Path work;
  @TempDir static Path deviceHome;

  static final String SHARED = "shared-token-for-session-tests-0123";
  static final List<String> CORE_TOOLS = ToolNames.CORE;
  static final List<String> EXT_TOOLS =
      List.of(
          "cost_query",
          "query_executions",
          "cortex_context",
          "wait_create",
          "wait_check",
          "wait_cancel");

  static SessionServer fixture;
  static AgentServer server;
  static SessionApi api;
  static AgentPrograms programs;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        SessionServer.start(
            home,
            work,
            null,
            Map.of("CORTEX_CLIENT_TOKEN", SHARED, "CORTEX_PROJECT", "set-on-the-server"),
            "{\"machines\": {\"box1\": {\"platform\": \"linux\"}}}");
    fixture.server.connect(
        "box1", deviceHome, Map.of("CORTEX_CLIENT_TOKEN", SHARED), "--workdir", work.toString());
    server = fixture.server;
    api = fixture.api;
    programs = fixture.programs;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void turn_callsToolsThroughItsMcpServer_transcriptExecutionAndCostComeOutRight()
      throws Exception {
    String project = "tools-project";
    JsonNode session =
        fixture.scripted(
            "tooled", Map.of("project", project, "model", "claude-sonnet-4-5", "thinking", "High"));
    String id = session.path("id").asString();
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "claude-sonnet-4-5");
    cost.put("input_tokens", 1000);
    cost.put("output_tokens", 200);
    cost.put("cache_read_tokens", 50);
    cost.put("usd", null);
    String prompt =
        script(
            Map.of(
                "say",
                "checking",
                "calls",
                List.of(
                    call("current_time", Map.of("timezone", "UTC")),
                    call("remote_bash", Map.of("device", "box1", "command", "echo from-box1")),
                    call("cost_query", Map.of("projectId", project)),
                    call("query_executions", Map.of("status", "running", "project", project)),
                    call("cortex_context", Map.of())),
                "cost",
                cost));

    SessionApi.Answer answer = api.follow("tooled", prompt);

    JsonNode end = answer.result();
    assertThat(end.path("status").asString()).as("%s", answer.lines()).isEqualTo("completed");
    String execution = end.path("execution_id").asString();
    assertThat(answer.lines().get(0).path("delivery").path("status").asString())
        .isEqualTo("started");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript))
        .containsExactly(
            "user",
            "assistant",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result");
    assertThat(transcript)
        .allSatisfy(e -> assertThat(e.path("execution_id").asString()).isEqualTo(execution));
    List<JsonNode> streamed = new ArrayList<>();
    answer.lines().stream()
        .filter(l -> l.path("event").asString().equals("entry"))
        .forEach(l -> streamed.add(l.path("entry")));
    assertThat(streamed).as("the followed turn streamed its entries").isEqualTo(transcript);
    List<JsonNode> page = new ArrayList<>();
    api.call("transcript", Map.of("session", "tooled", "after", 2, "limit", 3))
        .result()
        .path("entries")
        .forEach(page::add);
    assertThat(page).isEqualTo(transcript.subList(2, 5));
    assertThat(page).extracting(e -> e.path("seq").asLong()).containsExactly(3L, 4L, 5L);
    assertThat(transcript.get(0).path("body").path("text").asString()).isEqualTo(prompt);
    assertThat(transcript.get(0).path("body").path("source").asString()).isEqualTo("person");
    assertThat(ofKind(transcript, "tool_use"))
        .extracting(e -> e.path("body").path("name").asString())
        .containsExactly(
            "mcp__cortex-core__current_time",
            "mcp__cortex-core__remote_bash",
            "mcp__cortex-core__cost_query",
            "mcp__cortex-core__query_executions",
            "mcp__cortex-core__cortex_context");
    List<JsonNode> results = ofKind(transcript, "tool_result");
    assertThat(results)
        .allSatisfy(
            r -> assertThat(r.path("body").path("is_error").asBoolean()).as("%s", r).isFalse());
    assertThat(content(results.get(0)).path("timezone").asString()).isEqualTo("UTC");
    assertThat(results.get(1).path("body").path("content").asString()).contains("from-box1");
    JsonNode spentBefore = content(results.get(2));
    assertThat(spentBefore.path("project").asString()).isEqualTo(project);
    assertThat(spentBefore.path("today").path("records").asLong()).isZero();
    JsonNode running = content(results.get(3));
    assertThat(running.path("count").asInt()).isEqualTo(1);
    JsonNode self = running.path("executions").get(0);
    assertThat(self.path("id").asString()).isEqualTo(execution);
    assertThat(self.path("status").asString()).isEqualTo("running");
    assertThat(self.path("session_id").asString()).isEqualTo(id);
    assertThat(self.path("channel").asString()).isEqualTo("cli:tooled");
    JsonNode context = content(results.get(4));
    assertThat(context.path("sessionId").asString()).isEqualTo(id);
    assertThat(context.path("project").asString()).isEqualTo(project);
    assertThat(context.path("backend").asString()).isEqualTo("command");
    assertThat(context.path("model").asString()).isEqualTo("claude-sonnet-4-5");
    assertThat(context.path("thinking").asString()).isEqualTo("high");
    assertThat(context.path("provider").isNull()).as("the command backend names none").isTrue();
    assertThat(context.path("mode").asString()).isEqualTo("default");
    assertThat(context.has("board")).as("a session not on the web has no board field").isFalse();

    // The records, as the ext tools read them after the turn.
    JsonNode record = api.execution(execution);
    assertThat(record.path("status").asString()).isEqualTo("completed");
    assertThat(record.path("kind").asString()).isEqualTo("turn");
    assertThat(record.path("output").asString()).isEqualTo("checking");
    assertThat(record.path("error").isNull()).isTrue();
    assertThat(record.path("ended_at").isString()).isTrue();
    assertThat(record.path("turns").asInt()).isEqualTo(1);
    // No usd from the backend: priced by the shipped table, $3 input, $15 output and $0.30 cache
    // reads per million tokens.
    double usd = 1000 * 3e-6 + 200 * 15e-6 + 50 * 0.30e-6;
    assertThat(record.path("cost_usd").asDouble()).isCloseTo(usd, within(1e-9));
    JsonNode spent = api.costs(project);
    assertThat(spent.path("today").path("usd").asDouble()).isCloseTo(usd, within(1e-9));
    assertThat(spent.path("today").path("api_usd").asDouble()).isCloseTo(usd, within(1e-9));
    assertThat(spent.path("today").path("plan_usd").asDouble()).isZero();
    assertThat(spent.path("today").path("by_source").path("turn").asDouble())
        .isCloseTo(usd, within(1e-9));
    assertThat(spent.path("today").path("records").asLong()).isEqualTo(1);
    JsonNode tokens = spent.path("today").path("tokens");
    assertThat(tokens.path("input").asLong()).isEqualTo(1000);
    assertThat(tokens.path("output").asLong()).isEqualTo(200);
    assertThat(tokens.path("cache_read").asLong()).isEqualTo(50);
    assertThat(spent.path("month").path("usd").asDouble()).isCloseTo(usd, within(1e-9));
    assertThat(spent.path("daily").path("cap_usd").isNull()).isTrue();
    JsonNode shown = api.show(id);
    assertThat(shown.path("state").asString()).isEqualTo("idle");
    assertThat(shown.path("running_execution").isNull()).isTrue();
  }

  @Test
  void composition_personStartedDirectSession_listsCoreExtAndInteractionTools_agentStartedNot()
      throws Exception {
    String id = fixture.scripted("listing", Map.of()).path("id").asString();

    SessionApi.Answer answer = api.follow(id, script(Map.of("list_tools", true)));

    assertThat(answer.result().path("status").asString()).isEqualTo("completed");
    Map<String, List<String>> listed = listed(api.transcript(id));
    assertThat(listed).containsOnlyKeys("cortex-core");
    List<String> expected = new ArrayList<>(CORE_TOOLS);
    expected.addAll(EXT_TOOLS);
    List<String> interaction = List.of("cortex_ask_user", "cortex_plan_enter", "cortex_plan_exit");
    List<String> withInteraction = new ArrayList<>(expected);
    withInteraction.addAll(interaction);
    assertThat(listed.get("cortex-core")).containsExactlyInAnyOrderElementsOf(withInteraction);

    String agents =
        fixture.scripted("listing-agent", Map.of("started_by", "agent")).path("id").asString();
    api.follow(agents, script(Map.of("list_tools", true)));
    assertThat(listed(api.transcript(agents)).get("cortex-core"))
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void composition_none_hasNoMcpServerAtAll() throws Exception {
    String id = fixture.scripted("bare", Map.of("composition", "none")).path("id").asString();

    SessionApi.Answer answer =
        api.follow(id, script(Map.of("say", "nothing to list", "list_tools", true)));

    assertThat(answer.result().path("status").asString()).isEqualTo("completed");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(listed(transcript)).isEmpty();
    assertThat(ofKind(transcript, "assistant"))
        .extracting(e -> e.path("body").path("text").asString())
        .containsExactly("nothing to list");
  }

  @Test
  void composition_allowlist_listsOnlyTheAllowedTools_andRefusesOthers() throws Exception {
    String id =
        fixture
            .scripted(
                "gated",
                Map.of(
                    "started_by",
                    "agent",
                    "tool_allowlist",
                    List.of("current_time", "mcp__cortex-core__cost_query")))
            .path("id")
            .asString();

    SessionApi.Answer answer =
        api.follow(
            id,
            script(
                Map.of(
                    "list_tools",
                    true,
                    "calls",
                    List.of(
                        call("current_time", Map.of()),
                        call("remote_bash", Map.of("device", "box1", "command", "true"))))));

    assertThat(answer.result().path("status").asString()).isEqualTo("completed");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(listed(transcript))
        .containsExactly(Map.entry("cortex-core", List.of("current_time", "cost_query")));
    List<JsonNode> results = ofKind(transcript, "tool_result");
    assertThat(results.get(0).path("body").path("is_error").asBoolean()).isFalse();
    assertThat(results.get(1).path("body").path("is_error").asBoolean()).isTrue();
    assertThat(results.get(1).path("body").path("content").asString()).contains("remote_bash");
  }

  @Test
  void environment_bundlesConfigAndVariablesFollowTheSeedsRules() throws Exception {
    record Kind(String name, Map<String, Object> fields, String bundles, String config) {}
    String direct = home.resolve("config/mcp-config.json").toString();
    List<Kind> kinds =
        List.of(
            new Kind(
                "env-person",
                Map.of("project", "env-project", "model", "m-1", "mode", "plan"),
                "core,ext,interaction",
                direct),
            new Kind("env-agent", Map.of("started_by", "agent"), "core,ext", direct),
            new Kind("env-callback", Map.of("started_by", "callback"), "core,ext", direct),
            new Kind(
                "env-none",
                Map.of("composition", "none"),
                "",
                home.resolve("config/mcp-config-empty.json").toString()),
            new Kind(
                "env-gated",
                Map.of("started_by", "agent", "tool_allowlist", List.of("current_time")),
                "core,ext",
                null));
    String token = server.token();
    for (Kind kind : kinds) {
      Map<String, Object> fields = new LinkedHashMap<>(kind.fields());
      fields.put("name", kind.name());
      String id = api.create(AgentPrograms.run(programs.env), work, fields).path("id").asString();
      assertThat(api.follow(id, "show me").result().path("status").asString())
          .isEqualTo("completed");
      Map<String, String> env = programs.environment(id);
      JsonNode turn = programs.turn(id);
      assertThat(env.get("CORTEX_MCP_BUNDLES")).as(kind.name()).isEqualTo(kind.bundles());
      assertThat(env.get("CORTEX_SESSION_ID")).isEqualTo(id);
      assertThat(env.get("CORTEX_BACKEND")).isEqualTo("command");
      assertThat(env.get("CORTEX_HOME")).isEqualTo(home.toString());
      assertThat(env.get("CORTEX_WEBHOOK_TOKEN")).isEqualTo(token);
      assertThat(env.get("WEBHOOK_PORT")).isEqualTo(Integer.toString(server.webhookPort));
      assertThat(env).as("the hub's shared token").doesNotContainKey("CORTEX_CLIENT_TOKEN");
      assertThat(env.get("CORTEX_MCP_CONFIG")).isEqualTo(turn.path("mcp_config").asString());
      if (kind.config() != null) {
        assertThat(env.get("CORTEX_MCP_CONFIG")).as(kind.name()).isEqualTo(kind.config());
      }
      assertThat(turn.path("session_id").asString()).isEqualTo(id);
      assertThat(turn.path("prompt").asString()).isEqualTo("show me");
      assertThat(turn.path("resume").isNull()).isTrue();
    }

    Map<String, String> person = programs.environment(fixture.id("env-person"));
    assertThat(person.get("CORTEX_PROJECT")).isEqualTo("env-project");
    assertThat(person.get("CORTEX_MODEL")).isEqualTo("m-1");
    assertThat(person.get("CORTEX_MODE")).isEqualTo("plan");
    Map<String, String> agent = programs.environment(fixture.id("env-agent"));
    assertThat(agent)
        .as("the server's own CORTEX_PROJECT is not a session's")
        .doesNotContainKey("CORTEX_PROJECT");
    assertThat(agent.get("CORTEX_MODE")).isEqualTo("default");
    assertThat(agent).doesNotContainKeys("CORTEX_MCP_TOOL_ALLOWLIST", "SLACK_CHANNEL");
    // Sessions of the platform channels (web:, slack:, feishu:), which the API refuses, have their
    // environment tested in SessionEnvironmentTest.
    Map<String, String> gated = programs.environment(fixture.id("env-gated"));
    assertThat(gated.get("CORTEX_MCP_TOOL_ALLOWLIST")).isEqualTo("current_time");
    Path gate = Path.of(gated.get("CORTEX_MCP_CONFIG"));
    assertThat(gate.getParent()).isEqualTo(home.resolve("config/mcp-tool-gates"));
    assertThat(gate.getFileName().toString()).matches("mcp-composition-[0-9a-f]{16}\\.json");
    JsonNode gateEnv =
        TestJson.JSON
            .readTree(Files.readString(gate))
            .path("mcpServers")
            .path("cortex-core")
            .path("env");
    assertThat(gateEnv.path("CORTEX_MCP_BUNDLES").asString()).isEqualTo("core,ext");
    assertThat(gateEnv.path("CORTEX_MCP_TOOL_ALLOWLIST").asString()).isEqualTo("current_time");

    // The next turn resumes the conversation the program named.
    String personId = fixture.id("env-person");
    assertThat(api.follow(personId, "again").result().path("status").asString())
        .isEqualTo("completed");
    assertThat(programs.turn(personId).path("resume").asString()).isEqualTo("conv-" + personId);
  }
}
