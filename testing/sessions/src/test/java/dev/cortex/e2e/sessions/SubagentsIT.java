package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.listed;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code agent} tool with the scripted agent as parent and children: one subagent, several at
 * once, a chain; what a child session is given (no delegation tools), and what rolls up to the
 * parent (its transcript's notes, the child's cost under the parent's project); bad input refused
 * with nothing written, and a spent budget refusing a subagent before it starts.
 */
class SubagentsIT extends OnOneServer {

  /** A scripted child that says {@code text} and reports {@code usd}. */
  static String child(String text, double usd) {
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "scripted");
    cost.put("usd", usd);
    return script(Map.of("say", text, "cost", cost));
  }

  static Map<String, Object> item(String description, String prompt) {
    return Map.of("description", description, "prompt", prompt, "subagent_type", "general-purpose");
  }

  /** Runs one turn of {@code parent} that calls {@code agent} with {@code arguments}. */
  static JsonNode delegate(String parent, Map<String, Object> arguments) throws Exception {
    SessionApi.Answer answer =
        api.follow(parent, script(Map.of("calls", List.of(call("agent", arguments)))));
    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    List<JsonNode> results = ofKind(api.transcript(parent), "tool_result");
    return results.get(results.size() - 1);
  }

  static String parent(String name, Map<String, Object> more) throws Exception {
    return fixture.scripted(name, more).path("id").asString();
  }

  @Test
  void agent_single_runsAChildSession_andItsResultTranscriptAndCostRollUpToTheParent()
      throws Exception {
    String parent = parent("sub-parent", Map.of("project", "delegating"));
    JsonNode result =
        delegate(
            parent,
            Map.of(
                "description",
                "say hello",
                "prompt",
                child("hello from the child", 0.25),
                "subagent_type",
                "general-purpose"));

    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    JsonNode ran = content(result);
    assertThat(ran.path("mode").asString()).isEqualTo("single");
    assertThat(ran.path("background").asBoolean()).isFalse();
    JsonNode agent = ran.path("agents").get(0);
    assertThat(agent.path("status").asString()).as("%s", ran).isEqualTo("completed");
    assertThat(agent.path("output").asString()).isEqualTo("hello from the child");
    assertThat(agent.path("cost_usd").asDouble()).isCloseTo(0.25, within(1e-9));
    assertThat(agent.path("agent_id").asString()).matches("sa-[0-9a-f]{12}");
    String childId = agent.path("session_id").asString();

    JsonNode child = api.show(childId);
    assertThat(child.path("started_by").asString()).isEqualTo("subagent");
    assertThat(child.path("project").asString()).isEqualTo("delegating");
    assertThat(child.path("backend").asString()).isEqualTo("command");
    List<String> allowlist = new ArrayList<>();
    child.path("tool_allowlist").forEach(t -> allowlist.add(t.asString()));
    assertThat(allowlist).contains("remote_bash", "current_time").doesNotContain("agent");
    assertThat(allowlist).doesNotContain("agent_stop", "wait_create");

    List<JsonNode> childTranscript = api.transcript(childId);
    assertThat(ofKind(childTranscript, "assistant"))
        .extracting(e -> e.path("body").path("text").asString())
        .containsExactly("hello from the child");
    List<String> notes =
        ofKind(api.transcript(parent), "note").stream()
            .map(e -> e.path("body").path("text").asString())
            .toList();
    assertThat(notes).hasSize(2);
    assertThat(notes.get(0)).contains(agent.path("agent_id").asString(), childId, "say hello");
    assertThat(notes.get(1)).contains("completed", "0.2500 USD");

    // The child's spend is its parent's project's.
    assertThat(api.costs("delegating").toString()).contains("0.25");

    // A subagent that reached the route anyway could not delegate.
    var nested =
        server.post(
            "/webhook/subagent/run",
            "{\"session_id\": \""
                + childId
                + "\", \"description\": \"d\", \"prompt\": \"p\","
                + " \"subagent_type\": \"general-purpose\"}",
            Map.of("x-cortex-token", server.token()));
    assertThat(nested.statusCode()).isEqualTo(403);
    assertThat(nested.body()).contains("NO_DELEGATION");
    var badShow =
        server.post(
            "/api/subagents/show",
            "{\"agent_id\": \"x\"}",
            Map.of("x-cortex-token", server.token()));
    assertThat(badShow.statusCode()).isEqualTo(400);
    assertThat(badShow.body()).contains("INVALID_ARGUMENT", "agent_id");
  }

  @Test
  void agent_childToolsList_hasNoDelegationTools() throws Exception {
    String parent = parent("sub-lister", Map.of());
    JsonNode result =
        delegate(
            parent,
            Map.of(
                "description",
                "list tools",
                "prompt",
                script(Map.of("list_tools", true)),
                "subagent_type",
                "general-purpose"));
    String childId = content(result).path("agents").get(0).path("session_id").asString();

    Map<String, List<String>> tools = listed(api.transcript(childId));
    assertThat(tools).hasSize(1);
    List<String> names = tools.values().iterator().next();
    assertThat(names).contains("remote_bash", "remote_read", "current_time");
    assertThat(names)
        .doesNotContain("agent", "agent_stop", "worker_spawn", "mark_routine", "cost_query");
  }

  @Test
  void agent_parallel_runsItsItemsAtOnce_andAnswersInItemOrder() throws Exception {
    String parent = parent("sub-fan", Map.of());
    List<Map<String, Object>> items = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      items.add(item("item " + i, script(Map.of("say", "result " + i, "sleep_ms", 1500))));
    }
    items.add(item("item 4", script(Map.of("fail", "item 4 broke"))));
    JsonNode ran = content(delegate(parent, Map.of("parallel", items)));

    assertThat(ran.path("mode").asString()).isEqualTo("parallel");
    List<JsonNode> agents = new ArrayList<>();
    ran.path("agents").forEach(agents::add);
    assertThat(agents)
        .extracting(a -> a.path("description").asString())
        .containsExactly("item 1", "item 2", "item 3", "item 4");
    assertThat(agents.subList(0, 3))
        .extracting(a -> a.path("output").asString())
        .containsExactly("result 1", "result 2", "result 3");
    assertThat(agents.get(3).path("status").asString()).isEqualTo("failed");
    assertThat(agents.get(3).path("error").asString()).contains("item 4 broke");
    // Every sleeping turn started before any of them ended: they ran at the same time.
    List<Instant> starts = new ArrayList<>();
    List<Instant> ends = new ArrayList<>();
    for (JsonNode agent : agents.subList(0, 3)) {
      JsonNode turn = api.executionsOf(agent.path("session_id").asString()).get(0);
      starts.add(Instant.parse(turn.path("started_at").asString()));
      ends.add(Instant.parse(turn.path("ended_at").asString()));
    }
    Instant lastStart = starts.stream().max(Instant::compareTo).orElseThrow();
    Instant firstEnd = ends.stream().min(Instant::compareTo).orElseThrow();
    assertThat(lastStart).as("starts %s, ends %s", starts, ends).isBefore(firstEnd);
  }

  @Test
  void agent_chain_givesEachItemThePreviousOutput_andSkipsWhatFollowsAFailure() throws Exception {
    String parent = parent("sub-chain", Map.of());
    JsonNode ran =
        content(
            delegate(
                parent,
                Map.of(
                    "chain",
                    List.of(
                        item("first", script(Map.of("say", "alpha"))),
                        item("second", "{\"say\": \"got {previous}\"}")))));
    assertThat(ran.path("agents").get(1).path("output").asString()).isEqualTo("got alpha");

    JsonNode broken =
        content(
            delegate(
                parent,
                Map.of(
                    "chain",
                    List.of(
                        item("first", script(Map.of("fail", "no alpha"))),
                        item("second", "{\"say\": \"got {previous}\"}")))));
    assertThat(broken.path("agents").get(0).path("status").asString()).isEqualTo("failed");
    assertThat(broken.path("agents").get(1).path("status").asString()).isEqualTo("skipped");
    assertThat(broken.path("agents").get(1).path("session_id").asString()).isNotEmpty();
  }

  @Test
  void agent_badInput_isRefusedWithAStableCode_andNothingIsWritten() throws Exception {
    String parent = parent("sub-bad", Map.of());
    int sessionsBefore = fixture.sessionIds().size();
    List<Map<String, Object>> bad =
        List.of(
            Map.of(),
            Map.of(
                "description",
                "d",
                "prompt",
                "p",
                "subagent_type",
                "general-purpose",
                "chain",
                List.of(item("x", "y"))),
            Map.of("description", "d", "prompt", "p", "subagent_type", "no-such-role"),
            Map.of("parallel", List.of(item("x", "y"), item("", "y"))),
            Map.of(
                "description",
                "d",
                "prompt",
                "p",
                "subagent_type",
                "general-purpose",
                "backend",
                "nonexistent"));
    Map<String, Object> elsewhere = new LinkedHashMap<>(item("later", "y"));
    elsewhere.put("backend", "nonexistent");
    bad = new ArrayList<>(bad);
    // A later item that cannot run refuses the call before the first is made.
    bad.add(Map.of("parallel", List.of(item("fine", "y"), elsewhere)));
    List<Map<String, Object>> calls = new ArrayList<>();
    bad.forEach(arguments -> calls.add(call("agent", arguments)));
    calls.add(call("agent_stop", Map.of("agent_id", "sa-000000000000")));
    api.follow(parent, script(Map.of("calls", calls)));

    List<JsonNode> results = ofKind(api.transcript(parent), "tool_result");
    assertThat(results).hasSize(calls.size());
    for (JsonNode result : results) {
      assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isTrue();
    }
    assertThat(text(results.get(0))).contains("INVALID_ARGUMENT", "Say what to delegate");
    assertThat(text(results.get(1))).contains("INVALID_ARGUMENT", "one mode per call");
    assertThat(text(results.get(2))).contains("INVALID_ARGUMENT", "no-such-role", "explore");
    assertThat(text(results.get(3))).contains("INVALID_ARGUMENT");
    assertThat(text(results.get(4))).contains("INVALID_ARGUMENT", "nonexistent");
    assertThat(text(results.get(5))).contains("INVALID_ARGUMENT", "nonexistent");
    assertThat(text(results.get(6))).contains("NOT_FOUND");
    assertThat(fixture.sessionIds()).hasSize(sessionsBefore);
    assertThat(ofKind(api.transcript(parent), "note")).isEmpty();

    // The routes refuse what a tool would not send, by name.
    var unknown =
        server.post(
            "/webhook/subagent/run",
            "{\"session_id\": \""
                + parent
                + "\", \"description\": \"d\", \"prompt\": \"p\","
                + " \"subagent_type\": \"general-purpose\", \"surprise\": 1}",
            Map.of("x-cortex-token", server.token()));
    assertThat(unknown.statusCode()).isEqualTo(400);
    assertThat(unknown.body()).contains("INVALID_ARGUMENT", "surprise");
    var noToken = server.post("/webhook/subagent/stop", "{}", Map.of());
    assertThat(noToken.statusCode()).isEqualTo(401);
    var noSession =
        server.post(
            "/webhook/subagent/run",
            "{\"session_id\": \"ses-nothere\", \"description\": \"d\", \"prompt\": \"p\","
                + " \"subagent_type\": \"general-purpose\"}",
            Map.of("x-cortex-token", server.token()));
    assertThat(noSession.statusCode()).isEqualTo(404);
    assertThat(noSession.body()).contains("NO_SESSION");
    assertThat(fixture.sessionIds()).hasSize(sessionsBefore);
  }

  @Test
  void agent_overTheParentsProjectBudget_isRefusedBeforeTheSubagentStarts(@TempDir Path otherHome)
      throws Exception {
    Files.createDirectories(otherHome.resolve("config"));
    Files.writeString(
        otherHome.resolve("config/cortex.toml"),
        """
        [budgets]
        timezone = "UTC"
        [budgets.projects.capped]
        daily_usd = 0.5
        """);
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      String parent =
          otherApi
              .create(ScriptedAgent.command(), work, Map.of("name", "capped", "project", "capped"))
              .path("id")
              .asString();
      Map<String, Object> spend = item("spend", child("spent", 0.6));
      Map<String, Object> more = item("more", child("more", 0.1));
      SessionApi.Answer answer =
          otherApi.follow(
              parent, script(Map.of("calls", List.of(call("agent", spend), call("agent", more)))));
      assertThat(answer.result().path("status").asString()).isEqualTo("completed");

      List<JsonNode> results = ofKind(otherApi.transcript(parent), "tool_result");
      assertThat(content(results.get(0)).path("agents").get(0).path("status").asString())
          .isEqualTo("completed");
      assertThat(results.get(1).path("body").path("is_error").asBoolean()).isTrue();
      assertThat(text(results.get(1))).contains("BUDGET_EXCEEDED", "capped");
      List<String> children = new ArrayList<>();
      otherApi
          .call("list", Map.of("limit", 200))
          .result()
          .path("sessions")
          .forEach(
              s -> {
                if (s.path("started_by").asString().equals("subagent")) {
                  children.add(s.path("id").asString());
                }
              });
      assertThat(children).as("only the first subagent has a session").hasSize(1);
    }
  }

  @Test
  void agent_foreground_reportsProgressAsItRuns_endingWithEveryItemDone() throws Exception {
    String parent = parent("sub-progress", Map.of());
    List<io.modelcontextprotocol.spec.McpSchema.ProgressNotification> progress =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    try (var client = dev.cortex.testing.McpClients.cortex(home, parent, "core", progress::add)) {
      dev.cortex.testing.Outcome outcome =
          dev.cortex.testing.McpClients.call(
              client,
              "agent",
              Map.of(
                  "parallel",
                  List.of(
                      item("quick", child("quick one", 0)),
                      item("slow", script(Map.of("sleep_ms", 1_500, "say", "slow one"))))),
              "agent-progress");
      assertThat(outcome.isError()).as(outcome.text()).isFalse();
    }
    assertThat(progress).as("progress notifications").isNotEmpty();
    assertThat(progress).allMatch(p -> p.progressToken().equals("agent-progress"));
    assertThat(progress).allMatch(p -> p.total() != null && p.total() == 2.0);
    assertThat(progress.get(0).progress()).isLessThan(2.0);
    var last = progress.get(progress.size() - 1);
    assertThat(last.progress()).isEqualTo(2.0);
    assertThat(last.message()).contains("2 of 2");
    for (int i = 1; i < progress.size(); i++) {
      assertThat(progress.get(i).progress()).isGreaterThanOrEqualTo(progress.get(i - 1).progress());
    }
  }

  @Test
  void agent_foreground_isStopped_withItsProcesses_whenTheParentsTurnIsStopped() throws Exception {
    String parent = parent("sub-stopped-turn", Map.of());
    Path pidFile = work.resolve("foreground-child.pid");
    api.send(
        parent,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "agent",
                        item(
                            "long work",
                            script(
                                Map.of("pid_file", pidFile.toString(), "sleep_ms", 600_000))))))));
    dev.cortex.testing.Eventually.until(
        "the subagent running", AgentServer.LIMIT, () -> Files.exists(pidFile));
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    assertThat(api.call("stop", Map.of("session", parent)).result().path("stopped").asBoolean())
        .isTrue();
    dev.cortex.testing.Eventually.until(
        "the subagent's process ended",
        AgentServer.LIMIT,
        () -> !dev.cortex.testing.AgentPrograms.alive(pid));
    CliRun listed = CliRun.run(server, "", "agents", "list", "--session", parent, "--json");
    JsonNode agents = dev.cortex.testing.TestJson.JSON.readTree(listed.stdout()).path("agents");
    assertThat(agents.size()).isEqualTo(1);
    dev.cortex.testing.Eventually.until(
        "the subagent marked stopped",
        AgentServer.LIMIT,
        () -> {
          CliRun again =
              CliRun.run(
                  server,
                  "",
                  "agents",
                  "show",
                  agents.get(0).path("agent_id").asString(),
                  "--json");
          return dev.cortex.testing.TestJson.JSON
              .readTree(again.stdout())
              .path("agent")
              .path("status")
              .asString()
              .equals("stopped");
        });
  }

  private static String text(JsonNode toolResult) {
    return toolResult.path("body").path("content").asString();
  }
}
