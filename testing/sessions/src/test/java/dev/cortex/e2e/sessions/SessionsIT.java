package dev.cortex.e2e.sessions;

import static dev.cortex.testing.SessionApi.kinds;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.ToolNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Agent sessions end to end: one real agent server with a real device client, sessions whose turns
 * the scripted agent of {@code test-fixtures} (or a small shell program) runs on the {@code
 * command} backend, the session API on the webhook, and the records the turns leave as the {@code
 * ext} tools read them. Each test has sessions of its own; those that restart a server (killed
 * mid-turn, budgets) have a server of their own. {@code max_turn} is at its minimum, one minute:
 * the test of a hung program waits for it, so it runs last and its turn starts with the server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SessionsIT {
  @TempDir static Path home;
  @TempDir static Path deviceHome;
  @TempDir static Path work;

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

  static AgentServer server;
  static SessionApi api;
  static AgentPrograms programs;
  static String hungId;

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config/cortex.toml"), "[sessions]\nmax_turn = \"1m\"\n");
    programs = AgentPrograms.write(work);
    server =
        new AgentServer(
                home, Map.of("CORTEX_CLIENT_TOKEN", SHARED, "CORTEX_PROJECT", "set-on-the-server"))
            .machines("{\"machines\": {\"box1\": {\"platform\": \"linux\"}}}")
            .start();
    api = new SessionApi(server);
    // The hung turn starts now: the test that waits for its max_turn runs last.
    hungId =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "hung"))
            .path("id")
            .asString();
    api.send(hungId, "ignore-term: a turn that never ends");
    server.connect(
        "box1", deviceHome, Map.of("CORTEX_CLIENT_TOKEN", SHARED), "--workdir", work.toString());
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static String script(Map<String, Object> script) {
    return TestJson.JSON.writeValueAsString(script);
  }

  static Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return Map.of("tool", tool, "arguments", arguments);
  }

  static JsonNode scripted(String name, Map<String, Object> more) throws Exception {
    Map<String, Object> fields = new LinkedHashMap<>(more);
    fields.put("name", name);
    return api.create(ScriptedAgent.command(), work, fields);
  }

  static List<JsonNode> ofKind(List<JsonNode> entries, String kind) {
    return entries.stream().filter(e -> e.path("kind").asString().equals(kind)).toList();
  }

  static JsonNode content(JsonNode toolResult) {
    return TestJson.JSON.readTree(toolResult.path("body").path("content").asString());
  }

  @Test
  @Order(1)
  void turn_callsToolsThroughItsMcpServer_transcriptExecutionAndCostComeOutRight()
      throws Exception {
    String project = "tools-project";
    JsonNode session = scripted("tooled", Map.of("project", project, "model", "claude-sonnet-4-5"));
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
    assertThat(context.path("mode").asString()).isEqualTo("default");
    assertThat(context.path("board").isNull()).isTrue();

    // The records, as the ext tools read them after the turn.
    JsonNode record = api.execution(execution);
    assertThat(record.path("status").asString()).isEqualTo("completed");
    assertThat(record.path("kind").asString()).isEqualTo("turn");
    assertThat(record.path("output").asString()).isEqualTo("checking");
    assertThat(record.path("error").isNull()).isTrue();
    assertThat(record.path("ended_at").isString()).isTrue();
    assertThat(record.path("turns").asInt()).isEqualTo(1);
    // No usd from the backend: priced by the shipped table, $3 and $15 per million tokens.
    double usd = 1000 * 3e-6 + 200 * 15e-6;
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

  /** The tools each server of the session's configuration listed, by server key. */
  static Map<String, List<String>> listed(List<JsonNode> transcript) {
    Map<String, List<String>> listed = new LinkedHashMap<>();
    for (JsonNode entry : ofKind(transcript, "assistant")) {
      String text = entry.path("body").path("text").asString();
      if (text.startsWith("{")) {
        JsonNode server = TestJson.JSON.readTree(text);
        List<String> tools = new ArrayList<>();
        server.path("tools").forEach(t -> tools.add(t.asString()));
        listed.put(server.path("server").asString(), tools);
      }
    }
    return listed;
  }

  @Test
  @Order(2)
  void composition_personStartedDirectSession_listsCoreAndExtTools() throws Exception {
    String id = scripted("listing", Map.of()).path("id").asString();

    SessionApi.Answer answer = api.follow(id, script(Map.of("list_tools", true)));

    assertThat(answer.result().path("status").asString()).isEqualTo("completed");
    Map<String, List<String>> listed = listed(api.transcript(id));
    assertThat(listed).containsOnlyKeys("cortex-core");
    List<String> expected = new ArrayList<>(CORE_TOOLS);
    expected.addAll(EXT_TOOLS);
    assertThat(listed.get("cortex-core")).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  @Order(3)
  void composition_none_hasNoMcpServerAtAll() throws Exception {
    String id = scripted("bare", Map.of("composition", "none")).path("id").asString();

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
  @Order(4)
  void composition_allowlist_listsOnlyTheAllowedTools_andRefusesOthers() throws Exception {
    String id =
        scripted(
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
  @Order(5)
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
            new Kind(
                "env-web", Map.of("channel", "web:board-7"), "core,ext,interaction,web", direct),
            new Kind(
                "env-slack",
                Map.of("channel", "slack:C0123", "started_by", "callback"),
                "core,ext,slack",
                direct),
            new Kind(
                "env-feishu",
                Map.of("channel", "feishu:oc_42", "started_by", "schedule"),
                "core,ext,feishu",
                direct),
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

    Map<String, String> person = programs.environment(id("env-person"));
    assertThat(person.get("CORTEX_PROJECT")).isEqualTo("env-project");
    assertThat(person.get("CORTEX_MODEL")).isEqualTo("m-1");
    assertThat(person.get("CORTEX_MODE")).isEqualTo("plan");
    Map<String, String> agent = programs.environment(id("env-agent"));
    assertThat(agent)
        .as("the server's own CORTEX_PROJECT is not a session's")
        .doesNotContainKey("CORTEX_PROJECT");
    assertThat(agent.get("CORTEX_MODE")).isEqualTo("default");
    assertThat(agent).doesNotContainKeys("CORTEX_MCP_TOOL_ALLOWLIST", "SLACK_CHANNEL");
    assertThat(programs.environment(id("env-slack")).get("SLACK_CHANNEL")).isEqualTo("C0123");
    assertThat(programs.environment(id("env-feishu")).get("FEISHU_CHANNEL")).isEqualTo("oc_42");
    Map<String, String> gated = programs.environment(id("env-gated"));
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
    String personId = id("env-person");
    assertThat(api.follow(personId, "again").result().path("status").asString())
        .isEqualTo("completed");
    assertThat(programs.turn(personId).path("resume").asString()).isEqualTo("conv-" + personId);
  }

  static String id(String name) throws Exception {
    return api.show(name).path("id").asString();
  }

  @Test
  @Order(6)
  void send_whileATurnRuns_isInjectedIntoIt() throws Exception {
    String id = scripted("injected", Map.of()).path("id").asString();
    JsonNode first =
        api.send(id, script(Map.of("say", "waiting", "await_inject", 1, "echo_injected", true)));
    assertThat(first.path("status").asString()).isEqualTo("started");
    api.awaitEntry(id, said("waiting"), "the agent waiting");

    JsonNode second = api.send(id, "and goodbye");

    assertThat(second.path("status").asString()).isEqualTo("injected");
    assertThat(second.path("execution_id").asString())
        .isEqualTo(first.path("execution_id").asString());
    api.awaitEntry(id, said("injected: and goodbye"), "the injected message said back");
    api.awaitIdle(id);
    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript)).containsExactly("user", "assistant", "user", "assistant");
    assertThat(transcript.get(2).path("body").path("text").asString()).isEqualTo("and goodbye");
    assertThat(transcript)
        .allSatisfy(
            e ->
                assertThat(e.path("execution_id").asString())
                    .isEqualTo(first.path("execution_id").asString()));
    assertThat(api.executionsOf(id)).hasSize(1);
    assertThat(api.execution(first.path("execution_id").asString()).path("output").asString())
        .isEqualTo("injected: and goodbye");
  }

  @Test
  @Order(7)
  void send_toATurnThatTakesNoInjection_isQueued_andTheNextTurnTakesEachOnce() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.hold), work, Map.of("name", "queueing"))
            .path("id")
            .asString();
    JsonNode first = api.send(id, "hold:queue-release");
    api.awaitEntry(id, said("holding"), "the first turn holding");

    JsonNode a = api.send(id, "message a");
    JsonNode b = api.send(id, "message b");

    assertThat(a.path("status").asString()).isEqualTo("queued");
    assertThat(b.path("status").asString()).isEqualTo("queued");
    assertThat(b.path("inbox_seq").asLong()).isGreaterThan(a.path("inbox_seq").asLong());
    assertThat(api.show(id).path("running_execution").asString())
        .isEqualTo(first.path("execution_id").asString());
    programs.release("queue-release");
    Eventually.until("the second turn", AgentServer.LIMIT, () -> turns(id) == 2);
    api.awaitIdle(id);
    List<String> turns = programs.turns(id);
    assertThat(turns).hasSize(2);
    assertThat(TestJson.JSON.readTree(turns.get(1)).path("prompt").asString())
        .isEqualTo("message a\n\nmessage b");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(SessionApi.userTexts(transcript))
        .containsExactly("hold:queue-release", "message a", "message b");
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions).hasSize(2);
    assertThat(executions)
        .allSatisfy(e -> assertThat(e.path("status").asString()).isEqualTo("completed"));
    String next = executions.get(0).path("id").asString();
    assertThat(ofKind(transcript, "user").subList(1, 3))
        .allSatisfy(e -> assertThat(e.path("execution_id").asString()).isEqualTo(next));
  }

  static int turns(String id) {
    try {
      return programs.turns(id).size();
    } catch (IOException e) {
      return -1;
    }
  }

  @Test
  @Order(8)
  void twoSessions_onTwoChannels_runTurnsAtTheSameTime() throws Exception {
    String a = scripted("pair-a", Map.of()).path("id").asString();
    String b = scripted("pair-b", Map.of()).path("id").asString();
    String waiting = script(Map.of("say", "ready", "await_inject", 1, "echo_injected", true));

    api.send(a, waiting);
    api.send(b, waiting);
    api.awaitEntry(a, said("ready"), "a ready");
    api.awaitEntry(b, said("ready"), "b ready");

    JsonNode shownA = api.show(a);
    JsonNode shownB = api.show(b);
    assertThat(shownA.path("state").asString()).isEqualTo("running");
    assertThat(shownB.path("state").asString()).isEqualTo("running");
    assertThat(shownA.path("channel").asString()).isEqualTo("cli:pair-a");
    assertThat(shownB.path("channel").asString()).isEqualTo("cli:pair-b");
    assertThat(api.send(a, "go a").path("status").asString()).isEqualTo("injected");
    assertThat(api.send(b, "go b").path("status").asString()).isEqualTo("injected");
    api.awaitIdle(a);
    api.awaitIdle(b);
    assertThat(api.transcript(a))
        .anyMatch(said("injected: go a"))
        .noneMatch(said("injected: go b"));
    assertThat(api.transcript(b))
        .anyMatch(said("injected: go b"))
        .noneMatch(said("injected: go a"));
  }

  @Test
  @Order(9)
  void stop_byTheCli_endsTheProcessGroup_cancelsTheExecution_andTheSessionGoesOn()
      throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "stop-by-cli"))
            .path("id")
            .asString();
    String execution = api.send(id, "work on it").path("execution_id").asString();
    api.awaitEntry(id, said("working"), "the turn working");
    long[] pids = programs.pids(id);
    assertThat(AgentPrograms.alive(pids[1])).isTrue();

    CliRun stopped = CliRun.run(server, "", "sessions", "stop", "stop-by-cli");

    assertThat(stopped.exitCode()).as(stopped.stderr()).isZero();
    assertThat(stopped.stderr()).contains("the turn was stopped");
    awaitEnded(pids);
    JsonNode record = api.execution(execution);
    assertThat(record.path("status").asString()).isEqualTo("cancelled");
    assertThat(record.path("error").asString())
        .isEqualTo("The turn was stopped: asked by the person.");
    List<JsonNode> transcript = api.transcript(id);
    JsonNode last = transcript.get(transcript.size() - 1);
    assertThat(last.path("kind").asString()).isEqualTo("system");
    assertThat(last.path("body").path("text").asString())
        .isEqualTo(record.path("error").asString());
    CliRun again = CliRun.run(server, "", "sessions", "stop", "stop-by-cli");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).contains("no turn was running");
    assertThat(api.follow(id, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }

  static void awaitEnded(long[] pids) {
    for (long pid : pids) {
      Eventually.until(
          "process " + pid + " ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(pid));
    }
  }

  @Test
  @Order(10)
  void stop_byTheApi_aProgramThatIgnoresTerm_isKilledWithItsChild() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "stop-by-api"))
            .path("id")
            .asString();
    String execution = api.send(id, "ignore-term and work").path("execution_id").asString();
    api.awaitEntry(id, said("working"), "the turn working");
    long[] pids = programs.pids(id);

    SessionApi.Answer stopped = api.call("stop", Map.of("session", id));

    assertThat(stopped.result().path("stopped").asBoolean()).isTrue();
    awaitEnded(pids);
    assertThat(api.execution(execution).path("status").asString()).isEqualTo("cancelled");
    assertThat(api.call("stop", Map.of("session", id)).result().path("stopped").asBoolean())
        .isFalse();
    assertThat(api.follow(id, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }

  @Test
  @Order(11)
  void crash_failsTheTurnWithItsStderrTail_thenMalformedLinesAreNotes_andTheSessionGoesOn()
      throws Exception {
    String id = scripted("crashing", Map.of()).path("id").asString();

    SessionApi.Answer crashed =
        api.follow(id, script(Map.of("say", "about to crash", "exit_without_end", true)));

    JsonNode end = crashed.result();
    assertThat(end.path("status").asString()).isEqualTo("failed");
    assertThat(end.path("error").asString())
        .startsWith("the backend exited with code 3 before the turn ended")
        .contains("scripted agent: exiting without an end line, as the script says");
    JsonNode record = api.execution(end.path("execution_id").asString());
    assertThat(record.path("status").asString()).isEqualTo("failed");
    assertThat(record.path("error").asString()).isEqualTo(end.path("error").asString());
    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript)).containsExactly("user", "assistant", "system");
    assertThat(transcript.get(2).path("body").path("text").asString())
        .isEqualTo("The turn failed: " + end.path("error").asString());

    SessionApi.Answer next = api.follow(id, script(Map.of("malformed", true, "say", "still here")));

    assertThat(next.result().path("status").asString()).isEqualTo("completed");
    List<JsonNode> after = api.transcript(id);
    assertThat(kinds(after.subList(3, after.size()))).containsExactly("user", "note", "assistant");
    assertThat(after.get(4).path("body").path("text").asString())
        .startsWith("the backend printed a line that is not JSON: this line is not JSON");
  }

  @Test
  @Order(12)
  void badInput_toTheApi_getsStableCodes_andWritesNothing() throws Exception {
    List<String> before = sessionIds();
    List<String> program = AgentPrograms.run(programs.hold);
    Map<String, Object> base = new LinkedHashMap<>();
    base.put("backend", "command");
    base.put("program", program);
    base.put("working_dir", work.toString());
    record Bad(Map<String, Object> change, String message) {}
    List<Bad> bad =
        List.of(
            new Bad(Map.of("backend", "gpt-cli"), "Unknown backend 'gpt-cli'. Known: "),
            new Bad(Map.of("program", List.of()), "needs the program"),
            new Bad(Map.of("name", "-dash"), "is not a session name"),
            new Bad(Map.of("name", "has space"), "is not a session name"),
            new Bad(Map.of("name", "n".repeat(65)), "is not a session name"),
            new Bad(Map.of("channel", "irc:#general"), "is not a channel"),
            new Bad(Map.of("channel", "cli:"), "is not a channel"),
            new Bad(Map.of("channel", "cli:two words"), "is not a channel"),
            new Bad(Map.of("project", "two words"), "is not a project name"),
            new Bad(Map.of("working_dir", "relative/dir"), "is not an existing absolute"),
            new Bad(
                Map.of("working_dir", work.resolve("missing").toString()), "is not an existing"),
            new Bad(Map.of("composition", "partial"), "composition is direct or none"),
            new Bad(Map.of("started_by", "robot"), "started_by is person, agent"),
            new Bad(Map.of("tool_allowlist", List.of()), "names at least one tool"),
            new Bad(Map.of("tool_allowlist", List.of("")), "'' is not a tool name"),
            new Bad(
                Map.of("tool_allowlist", List.of("current_time,remote_bash")),
                "'current_time,remote_bash' is not a tool name"),
            new Bad(
                Map.of("tool_allowlist", List.of("current_time", "curent_tme")),
                "names curent_tme, not served by the selected groups (core, ext, interaction)"),
            new Bad(
                Map.of("started_by", "agent", "tool_allowlist", List.of("cost_query", "runs_list")),
                "names runs_list, not served by the selected groups (core, ext)"));
    for (Bad case_ : bad) {
      Map<String, Object> body = new LinkedHashMap<>(base);
      body.putAll(case_.change());
      SessionApi.Answer answer = api.call("create", body);
      assertThat(answer.status()).as("%s", case_).isEqualTo(400);
      assertThat(answer.code()).as("%s", case_).isEqualTo("INVALID_ARGUMENT");
      assertThat(answer.message()).as("%s", case_).contains(case_.message());
    }
    for (String body : List.of("{nope", "[]", "\"text\"", "")) {
      SessionApi.Answer answer = api.raw("create", body, Duration.ofSeconds(30));
      assertThat(answer.status()).as(body).isEqualTo(400);
      assertThat(answer.code()).as(body).isEqualTo("INVALID_ARGUMENT");
    }

    Map<String, Object> first = new LinkedHashMap<>(base);
    first.put("name", "taken");
    first.put("channel", "cli:shared-channel");
    String taken = api.create(program, work, first).path("id").asString();
    Map<String, Object> sameChannel = new LinkedHashMap<>(first);
    sameChannel.put("name", "other");
    SessionApi.Answer channel = api.call("create", sameChannel);
    assertThat(channel.code()).isEqualTo("INVALID_ARGUMENT");
    assertThat(channel.message())
        .isEqualTo("Channel cli:shared-channel has a session already: one agent runs per channel.");
    Map<String, Object> sameName = new LinkedHashMap<>(base);
    sameName.put("name", "taken");
    assertThat(api.call("create", sameName).message())
        .isEqualTo("A session named 'taken' exists already.");

    for (String empty : List.of("", "   \n")) {
      SessionApi.Answer answer = api.call("send", Map.of("session", taken, "text", empty));
      assertThat(answer.status()).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
      assertThat(answer.message()).isEqualTo("The message is empty.");
    }
    assertThat(api.call("send", Map.of("session", taken)).code()).isEqualTo("INVALID_ARGUMENT");
    for (String route : List.of("show", "send", "stop", "transcript")) {
      SessionApi.Answer answer =
          api.call(route, Map.of("session", "no-such-session", "text", "hello"));
      assertThat(answer.status()).as(route).isEqualTo(404);
      assertThat(answer.code()).as(route).isEqualTo("NOT_FOUND");
      assertThat(answer.message()).as(route).isEqualTo("No session 'no-such-session'.");
    }
    for (Object limit : List.of(0, 201, -1, "many")) {
      SessionApi.Answer answer = api.call("list", Map.of("limit", limit));
      assertThat(answer.status()).as("list limit %s", limit).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
    }
    assertThat(api.call("list", Map.of("limit", 200)).status()).isEqualTo(200);
    for (Map<String, Object> page :
        List.of(
            Map.<String, Object>of("limit", 0),
            Map.<String, Object>of("limit", 501),
            Map.<String, Object>of("after", -1))) {
      Map<String, Object> body = new LinkedHashMap<>(page);
      body.put("session", taken);
      SessionApi.Answer answer = api.call("transcript", body);
      assertThat(answer.status()).as("transcript %s", page).isEqualTo(400);
      assertThat(answer.code()).isEqualTo("INVALID_ARGUMENT");
    }
    assertThat(api.call("transcript", Map.of("session", taken, "limit", 500)).status())
        .isEqualTo(200);
    HttpResponse<String> noToken = server.post("/api/sessions/list", "{}", Map.of());
    assertThat(noToken.statusCode()).isEqualTo(401);

    List<String> after = sessionIds();
    List<String> expected = new ArrayList<>(before);
    expected.add(taken);
    assertThat(after).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(api.transcript(taken)).isEmpty();
    assertThat(api.executionsOf(taken)).isEmpty();
    assertThat(api.show(taken).path("state").asString()).isEqualTo("idle");
  }

  static List<String> sessionIds() throws Exception {
    List<String> ids = new ArrayList<>();
    api.call("list", Map.of("limit", 200))
        .result()
        .path("sessions")
        .forEach(s -> ids.add(s.path("id").asString()));
    return ids;
  }

  @Test
  @Order(13)
  void badInput_toTheCli_failsWithTheCodeAndExitStatus() throws Exception {
    CliRun backend =
        CliRun.run(server, "", "sessions", "new", "--backend", "gpt-cli", "--cwd", work.toString());
    assertThat(backend.exitCode()).isEqualTo(1);
    assertThat(backend.stderr()).contains("cortex: INVALID_ARGUMENT: Unknown backend 'gpt-cli'");
    CliRun unknown = CliRun.run(server, "", "sessions", "show", "no-such-session");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("cortex: NOT_FOUND: No session 'no-such-session'.");
    CliRun limit = CliRun.run(server, "", "sessions", "list", "--limit", "0");
    assertThat(limit.exitCode()).isEqualTo(1);
    assertThat(limit.stderr()).contains("cortex: INVALID_ARGUMENT: limit must be 1 to 200.");
    CliRun allow =
        CliRun.run(
            server,
            "",
            "sessions",
            "new",
            "--backend",
            "command",
            "--program",
            programs.hold.toString(),
            "--cwd",
            work.toString(),
            "--allow",
            "");
    assertThat(allow.exitCode()).as(allow.stderr()).isEqualTo(1);
    assertThat(allow.stderr()).contains("cortex: INVALID_ARGUMENT: ");
    api.create(AgentPrograms.run(programs.hold), work, Map.of("name", "cli-bad-input"));
    CliRun empty = CliRun.run(server, "", "sessions", "send", "cli-bad-input", " ");
    assertThat(empty.exitCode()).isEqualTo(1);
    assertThat(empty.stderr()).contains("cortex: INVALID_ARGUMENT: The message is empty.");
    CliRun usage = CliRun.run(server, "", "sessions", "send", "no-text");
    assertThat(usage.exitCode()).isEqualTo(2);
  }

  @Test
  @Order(14)
  void chat_andSessionsSend_fromTheCli_showTheTurnsAsTheyCome() throws Exception {
    CliRun chat =
        CliRun.run(
            server,
            "hello there\n/quit\n",
            "chat",
            "--name",
            "chatty",
            "--backend",
            "command",
            "--program",
            programs.scripted.toString(),
            "--cwd",
            work.toString());

    assertThat(chat.exitCode()).as(chat.stderr()).isZero();
    assertThat(chat.stderr()).contains("cortex: new session chatty (backend command)");
    assertThat(chat.stdout()).isEqualTo("hello there\n");

    String prompt =
        script(
            Map.of(
                "say",
                "it is time",
                "calls",
                List.of(call("current_time", Map.of("timezone", "UTC")))));
    CliRun send = CliRun.run(server, "", "sessions", "send", "chatty", prompt);
    assertThat(send.exitCode()).as(send.stderr()).isZero();
    assertThat(send.stdout().lines())
        .containsExactly(
            "it is time",
            "  → mcp__cortex-core__current_time {\"timezone\":\"UTC\"}",
            send.stdout().lines().toList().get(2));
    assertThat(send.stdout().lines().toList().get(2)).startsWith("  ← {").contains("UTC");

    // A turn that says nothing for a while gets progress lines on stderr, not on stdout.
    CliRun slow =
        CliRun.run(
            server,
            "",
            "sessions",
            "send",
            "chatty",
            script(Map.of("sleep_ms", 3_500, "say", "slept")),
            "--progress",
            "1");
    assertThat(slow.exitCode()).as(slow.stderr()).isZero();
    assertThat(slow.stdout()).isEqualTo("slept\n");
    assertThat(slow.stderr().lines().filter(l -> l.startsWith("… still working: ")).count())
        .as(slow.stderr())
        .isGreaterThanOrEqualTo(2);
    assertThat(slow.stderr()).contains("0 tool calls so far");
    CliRun quiet =
        CliRun.run(
            server,
            "",
            "sessions",
            "send",
            "chatty",
            script(Map.of("sleep_ms", 2_500, "say", "slept")),
            "--progress",
            "0");
    assertThat(quiet.stderr()).doesNotContain("still working");
    SessionApi.Answer tooOften =
        api.call(
            "send",
            Map.of("session", "chatty", "text", "x", "follow", true, "progress_seconds", 601));
    assertThat(tooOften.code()).isEqualTo("INVALID_ARGUMENT");

    CliRun failed =
        CliRun.run(server, "", "sessions", "send", "chatty", script(Map.of("fail", "no luck")));
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.stderr()).contains("cortex: the turn ended failed: no luck");

    CliRun shown = CliRun.run(server, "", "sessions", "show", "chatty");
    assertThat(shown.exitCode()).as(shown.stderr()).isZero();
    assertThat(shown.stdout())
        .startsWith("chatty  idle  backend command  channel cli:chatty\n")
        .contains("you: hello there\nhello there\n")
        .contains("[The turn failed: no luck]");
    CliRun listed = CliRun.run(server, "", "sessions", "list");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.stdout()).contains("chatty").contains("cli:chatty");
  }

  @Test
  @Order(15)
  void restart_afterTheServerWasKilledMidTurn_theTurnIsInterrupted_andWaitingMessagesComeOnce(
      @TempDir Path otherHome) throws Exception {
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      String id =
          otherApi
              .create(AgentPrograms.run(programs.hold), work, Map.of("name", "in-flight"))
              .path("id")
              .asString();
      String done =
          otherApi
              .create(ScriptedAgent.command(), work, Map.of("name", "finished-before"))
              .path("id")
              .asString();
      assertThat(otherApi.follow(done, "said before the kill").result().path("status").asString())
          .isEqualTo("completed");
      List<JsonNode> doneBefore = otherApi.transcript(done);
      String first = otherApi.send(id, "hold:never-released").path("execution_id").asString();
      otherApi.awaitEntry(id, said("holding"), "the turn holding");
      long program = programs.pid(id);
      assertThat(otherApi.send(id, "after the kill").path("status").asString()).isEqualTo("queued");

      other.process.destroyForcibly().waitFor();
      // The dead server's groups are ended by its watcher, not left behind.
      Eventually.until(
          "the killed server's turn ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(program));
      other.start();

      Eventually.until("the waiting message's turn", AgentServer.LIMIT, () -> turns(id) == 2);
      otherApi.awaitIdle(id);
      assertThat(TestJson.JSON.readTree(programs.turns(id).get(1)).path("prompt").asString())
          .isEqualTo("after the kill");
      JsonNode interrupted = otherApi.execution(first);
      assertThat(interrupted.path("status").asString()).isEqualTo("stale");
      assertThat(interrupted.path("ended_at").isString()).isTrue();
      List<JsonNode> executions = otherApi.executionsOf(id);
      assertThat(executions).hasSize(2);
      assertThat(executions.get(0).path("status").asString()).isEqualTo("completed");
      List<JsonNode> transcript = otherApi.transcript(id);
      assertThat(kinds(transcript))
          .containsExactly("user", "assistant", "system", "user", "assistant");
      assertThat(transcript.get(2).path("body").path("text").asString())
          .isEqualTo("The turn was interrupted: the agent server stopped while it ran.");
      assertThat(SessionApi.userTexts(transcript))
          .containsExactly("hold:never-released", "after the kill");
      assertThat(transcript.get(3).path("execution_id").asString())
          .isEqualTo(executions.get(0).path("id").asString());
      assertThat(otherApi.transcript(done)).isEqualTo(doneBefore);
      assertThat(otherApi.show(done).path("state").asString()).isEqualTo("idle");

      // Once delivered, a message is not delivered again by the next start.
      assertThat(other.stop()).isEqualTo(143);
      other.start();
      assertThat(otherApi.follow(id, "quick check").result().path("status").asString())
          .isEqualTo("completed");
      assertThat(programs.turns(id)).hasSize(3);
      assertThat(SessionApi.userTexts(otherApi.transcript(id)))
          .containsExactly("hold:never-released", "after the kill", "quick check");
      assertThat(otherApi.executionsOf(id)).hasSize(3);
    }
  }

  static String costing(double usd, String mode) {
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "scripted");
    cost.put("input_tokens", 10);
    cost.put("output_tokens", 5);
    cost.put("usd", usd);
    cost.put("mode", mode);
    return script(Map.of("say", "spent " + usd, "cost", cost));
  }

  @Test
  @Order(16)
  void budgets_aProjectOverItsDailyCap_isRefused_othersRunOn_andTheFiguresSurviveARestart(
      @TempDir Path otherHome) throws Exception {
    Files.createDirectories(otherHome.resolve("config"));
    Files.writeString(
        otherHome.resolve("config/cortex.toml"),
        """
        [budgets]
        daily_usd = 2.0
        timezone = "UTC"
        [budgets.projects.capped]
        daily_usd = 0.5
        """);
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      List<String> agent = ScriptedAgent.command();
      String capped =
          otherApi
              .create(agent, work, Map.of("name", "capped-1", "project", "capped"))
              .path("id")
              .asString();
      String sibling =
          otherApi
              .create(agent, work, Map.of("name", "capped-2", "project", "capped"))
              .path("id")
              .asString();
      String free =
          otherApi
              .create(agent, work, Map.of("name", "free-1", "project", "free"))
              .path("id")
              .asString();
      assertThat(otherApi.follow(capped, costing(0.3, "api")).result().path("status").asString())
          .isEqualTo("completed");
      JsonNode half = otherApi.costs("capped");
      assertThat(half.path("daily").path("cap_usd").asDouble()).isEqualTo(0.5);
      assertThat(half.path("daily").path("remaining_usd").asDouble()).isCloseTo(0.2, within(1e-9));
      // Under the cap when it starts: the turn runs, and may take the spend past the cap.
      assertThat(otherApi.follow(capped, costing(0.3, "plan")).result().path("status").asString())
          .isEqualTo("completed");
      assertThat(otherApi.follow(free, costing(0.3, "api")).result().path("status").asString())
          .isEqualTo("completed");
      String refusal =
          "The turn was not started: project capped's daily budget of $0.5000 is spent"
              + " ($0.6000 today). Raise [budgets] in cortex.toml, or wait for tomorrow.";
      List<JsonNode> cappedBefore = otherApi.transcript(capped);

      for (int start = 0; start < 2; start++) {
        for (String session : List.of(capped, sibling)) {
          SessionApi.Answer refused =
              otherApi.call("send", Map.of("session", session, "text", "one more"));
          assertThat(refused.status()).isEqualTo(402);
          assertThat(refused.code()).isEqualTo("BUDGET_EXCEEDED");
          assertThat(refused.message()).isEqualTo(refusal);
        }
        assertThat(otherApi.transcript(capped)).isEqualTo(cappedBefore);
        assertThat(otherApi.transcript(sibling)).isEmpty();
        assertThat(otherApi.executionsOf(capped)).hasSize(2);
        assertThat(otherApi.executionsOf(sibling)).isEmpty();
        JsonNode spent = otherApi.costs("capped");
        assertThat(spent.path("today").path("usd").asDouble()).isCloseTo(0.6, within(1e-9));
        assertThat(spent.path("today").path("api_usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(spent.path("today").path("plan_usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(spent.path("today").path("records").asLong()).isEqualTo(2);
        assertThat(spent.path("today").path("tokens").path("input").asLong()).isEqualTo(20);
        assertThat(spent.path("daily").path("remaining_usd").asDouble()).isZero();
        JsonNode all = otherApi.costs(null);
        assertThat(all.path("today").path("usd").asDouble()).isCloseTo(0.9, within(1e-9));
        assertThat(all.path("daily").path("cap_usd").asDouble()).isEqualTo(2.0);
        assertThat(all.path("daily").path("remaining_usd").asDouble()).isCloseTo(1.1, within(1e-9));
        JsonNode freeSpent = otherApi.costs("free");
        assertThat(freeSpent.path("today").path("usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(freeSpent.path("daily").path("remaining_usd").asDouble())
            .as("what the overall cap leaves")
            .isCloseTo(1.1, within(1e-9));
        if (start == 0) {
          assertThat(other.stop()).isEqualTo(143);
          other.start();
        }
      }
      CliRun cli = CliRun.run(other, "", "sessions", "send", "capped-1", "from the terminal");
      assertThat(cli.exitCode()).isEqualTo(1);
      assertThat(cli.stderr()).contains("cortex: BUDGET_EXCEEDED: " + refusal);

      // The other project runs on, until the overall cap is spent too.
      assertThat(otherApi.follow(free, costing(1.2, "api")).result().path("status").asString())
          .isEqualTo("completed");
      SessionApi.Answer overall = otherApi.call("send", Map.of("session", free, "text", "more"));
      assertThat(overall.code()).isEqualTo("BUDGET_EXCEEDED");
      assertThat(overall.message())
          .isEqualTo(
              "The turn was not started: the overall daily budget of $2.00 is spent ($2.10"
                  + " today). Raise [budgets] in cortex.toml, or wait for tomorrow.");
      JsonNode all = otherApi.costs(null);
      assertThat(all.path("today").path("usd").asDouble()).isCloseTo(2.1, within(1e-9));
      assertThat(all.path("month").path("usd").asDouble()).isCloseTo(2.1, within(1e-9));
      assertThat(all.path("today").path("records").asLong()).isEqualTo(4);
      assertThat(all.path("daily").path("remaining_usd").asDouble()).isZero();
    }
  }

  @Test
  @Order(17)
  void badInput_toTheExtTools_getsStableCodes() throws Exception {
    for (Map<String, Object> args :
        List.<Map<String, Object>>of(
            Map.of("status", "finished"),
            Map.of("limit", 0),
            Map.of("limit", 101),
            Map.of("project", ""))) {
      Outcome outcome = api.tool("query_executions", args);
      assertThat(outcome.isError()).as("%s", args).isTrue();
      assertThat(outcome.errorCode()).as("%s", args).isEqualTo("INVALID_ARGUMENT");
    }
    Outcome unknown = api.tool("query_executions", Map.of("execution_id", "exe-none"));
    assertThat(unknown.isError()).isTrue();
    assertThat(unknown.errorMessage()).isEqualTo("No execution 'exe-none'.");
    Outcome project = api.tool("cost_query", Map.of("projectId", ""));
    assertThat(project.isError()).isTrue();
    assertThat(project.errorCode()).isEqualTo("INVALID_ARGUMENT");
    // The store still answers.
    assertThat(api.tool("query_executions", Map.of("status", "all", "limit", 1)).isError())
        .isFalse();
  }

  @Test
  @Order(18)
  void chat_slashStopTypedDuringATurn_stopsIt_andTheChatGoesOn() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "chat-stop"))
            .path("id")
            .asString();
    Process chat = CortexProcess.start(server.env, "chat", "chat-stop");
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> drain(chat.getInputStream()));
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> drain(chat.getErrorStream()));
    try (Writer typed = new OutputStreamWriter(chat.getOutputStream(), StandardCharsets.UTF_8)) {
      typed.write("work on it\n");
      typed.flush();
      api.awaitEntry(id, said("working"), "the turn working");
      long[] pids = programs.pids(id);

      typed.write("/stop\n");
      typed.flush();

      awaitEnded(pids);
      typed.write("quick one\n/quit\n");
    }
    assertThat(chat.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(chat.exitValue()).as(err.get()).isZero();
    assertThat(err.get())
        .contains("cortex: the turn was stopped")
        .contains("cortex: the turn ended cancelled: The turn was stopped: asked by the person.");
    assertThat(out.get()).isEqualTo("working\n[The turn was stopped: asked by the person.]\n");
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions)
        .extracting(e -> e.path("status").asString())
        .containsExactly("completed", "cancelled");
    assertThat(SessionApi.userTexts(api.transcript(id))).containsExactly("work on it", "quick one");
  }

  static String drain(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  @Test
  @Order(99)
  void hungProgram_isStoppedAtMaxTurn_withItsWholeGroup_andTheTurnFails() throws Exception {
    JsonNode[] record = new JsonNode[1];
    Eventually.untilQuietly(
        "the hung turn to reach max_turn",
        Duration.ofMinutes(3),
        () -> {
          List<JsonNode> executions = api.executionsOf(hungId);
          record[0] = executions.isEmpty() ? null : executions.get(0);
          return record[0] != null && !record[0].path("status").asString().equals("running");
        });

    assertThat(record[0].path("status").asString()).isEqualTo("failed");
    assertThat(record[0].path("error").asString())
        .isEqualTo("The turn was stopped: it ran longer than max_turn (1 min).");
    awaitEnded(programs.pids(hungId));
    List<JsonNode> transcript = api.transcript(hungId);
    assertThat(transcript.get(transcript.size() - 1).path("body").path("text").asString())
        .isEqualTo(record[0].path("error").asString());
    assertThat(api.follow(hungId, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }
}
