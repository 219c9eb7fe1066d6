package dev.cortex.e2e.sessions;

import static dev.cortex.testing.SessionApi.kinds;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeModelApi;
import dev.cortex.testing.ScriptedAnswer;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code api} backend end to end: a real agent server whose sessions' model is a local server
 * speaking the Anthropic Messages and OpenAI chat completions APIs ({@link FakeModelApi}), whose
 * tools run in the server's own process against a real device client.
 */
class ApiBackendIT {
  @TempDir static Path home;
  @TempDir static Path work;
  @TempDir static Path deviceHome;

  static final String KEY = "sk-ant-api03-test-key-that-must-never-be-seen-0123456789";
  static final String SHARED = "shared-token-for-api-backend-tests-0123";

  static FakeModelApi model;
  static SessionServer fixture;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    model = FakeModelApi.start();
    String toml =
        String.join(
            "\n",
            "[providers.local]",
            "kind = \"openai-compatible\"",
            "base_url = \"" + model.openAiUrl() + "\"",
            "",
            "[models.primary]",
            "provider = \"anthropic\"",
            "api_name = \"claude-sonnet-4-5\"",
            "context_tokens = 200000",
            "max_output_tokens = 4096",
            "fallbacks = [\"backup\"]",
            "",
            "[models.backup]",
            "provider = \"anthropic\"",
            "api_name = \"claude-haiku-4-5\"",
            "context_tokens = 200000",
            "max_output_tokens = 4096",
            "",
            "[models.tiny]",
            "provider = \"anthropic\"",
            "api_name = \"claude-sonnet-4-5\"",
            "context_tokens = 6000",
            "max_output_tokens = 500",
            "",
            "[models.local-llama]",
            "provider = \"local\"",
            "context_tokens = 8192",
            "max_output_tokens = 1024",
            "price = { input = 0, output = 0 }",
            "");
    fixture =
        SessionServer.start(
            home,
            work,
            toml,
            Map.of(
                "CORTEX_CLIENT_TOKEN", SHARED,
                "CORTEX_ANTHROPIC_BASE_URL", model.url(),
                "ANTHROPIC_API_KEY", KEY),
            "{\"machines\": {\"box1\": {\"platform\": \"linux\"}}}");
    fixture.server.connect(
        "box1", deviceHome, Map.of("CORTEX_CLIENT_TOKEN", SHARED), "--workdir", work.toString());
    api = fixture.api;
  }

  @AfterAll
  static void stop() throws Exception {
    if (fixture != null) {
      fixture.close();
      // The key reached the model's API and nothing else: not the server's log, not its files.
      assertThat(fixture.server.stderr.toString()).doesNotContain(KEY);
      try (Stream<Path> files = Files.walk(home)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          String bytes =
              new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
          assertThat(bytes.contains(KEY)).as("the key in %s", file).isFalse();
        }
      }
    }
    if (model != null) {
      model.close();
    }
  }

  @AfterEach
  void nothingLeftScripted() {
    assertThat(model.unanswered()).as("every scripted answer was asked for").isZero();
  }

  static String create(String name, Map<String, Object> more) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("backend", "api");
    body.put("working_dir", work.toString());
    body.putAll(more);
    SessionApi.Answer answer = api.call("create", body);
    assertThat(answer.status()).as("%s", answer.lines()).isEqualTo(200);
    return answer.result().path("id").asString();
  }

  /** The requests of the model API from {@code from} on. */
  static List<FakeModelApi.Request> since(int from, int count) throws InterruptedException {
    return model.awaitRequests(from + count).subList(from, from + count);
  }

  static List<JsonNode> messages(FakeModelApi.Request request) {
    List<JsonNode> list = new ArrayList<>();
    request.body().path("messages").forEach(list::add);
    return list;
  }

  /** The content of the Anthropic tool_result block for {@code id} in a request. */
  static String toolResult(FakeModelApi.Request request, String id) {
    for (JsonNode message : messages(request)) {
      for (JsonNode block : message.path("content")) {
        if (block.path("type").asString().equals("tool_result")
            && block.path("tool_use_id").asString().equals(id)) {
          JsonNode content = block.path("content");
          if (content.isString()) {
            return content.asString();
          }
          StringBuilder text = new StringBuilder();
          content.forEach(c -> text.append(c.path("text").asString()));
          return text.toString();
        }
      }
    }
    throw new AssertionError("no tool_result for " + id + " in " + request.body());
  }

  static List<String> offeredTools(FakeModelApi.Request request) {
    List<String> names = new ArrayList<>();
    request
        .body()
        .path("tools")
        .forEach(
            t ->
                names.add(
                    t.has("function")
                        ? t.path("function").path("name").asString()
                        : t.path("name").asString()));
    return names;
  }

  @Test
  void turn_callsToolsOnADevice_waits_andContinuesOnTheSignal() throws Exception {
    String id = create("multi", Map.of("model", "claude-sonnet-4-5", "project", "api-work"));
    int from = model.requests().size();
    model.answers(
        FakeModelApi.toolCall("toolu_1", "current_time", "{\"timezone\":", "\"UTC\"}")
            .usage(100, 20),
        FakeModelApi.reply()
            .text("Checking the box.")
            .toolCall(
                "toolu_2",
                "remote_bash",
                "{\"device\":\"box1\",",
                "\"command\":\"echo from-box1\"}")
            .usage(200, 30),
        FakeModelApi.toolCall(
                "toolu_3",
                "wait_create",
                "{\"label\":\"build\",\"intent\":\"read the build's result\"}")
            .usage(300, 40),
        FakeModelApi.text("Waiting for the build.").usage(400, 10));

    SessionApi.Answer answer =
        api.follow(id, "Check the time and the box, then wait for the build.");

    JsonNode end = answer.result();
    assertThat(end.path("status").asString()).as("%s", answer.lines()).isEqualTo("completed");
    List<FakeModelApi.Request> asked = since(from, 4);
    FakeModelApi.Request first = asked.get(0);
    assertThat(first.path()).isEqualTo("/v1/messages");
    assertThat(first.header("x-api-key")).isEqualTo(KEY);
    assertThat(first.body().path("model").asString()).isEqualTo("claude-sonnet-4-5");
    assertThat(first.body().path("system").isMissingNode()).isFalse();
    List<String> tools = offeredTools(first);
    assertThat(tools)
        .as(
            "plain names, the session's composition (core, ext and, started by a person,"
                + " interaction), never agent or agent_stop")
        .contains("current_time", "remote_bash", "cortex_context", "wait_create", "cost_query")
        .contains("cortex_ask_user", "cortex_plan_enter", "cortex_plan_exit")
        .doesNotContain("agent", "agent_stop")
        .noneMatch(name -> name.startsWith("mcp__"));
    assertThat(toolResult(asked.get(1), "toolu_1")).contains("UTC");
    assertThat(toolResult(asked.get(2), "toolu_2")).contains("from-box1");
    JsonNode waited = TestJson.JSON.readTree(toolResult(asked.get(3), "toolu_3"));
    String waitpoint = waited.path("waitpoint").path("id").asString();
    String secret = waited.path("secret").asString();
    assertThat(secret).startsWith("wps_");

    List<JsonNode> transcript = api.transcript(id);
    assertThat(kinds(transcript))
        .containsExactly(
            "user",
            "tool_use",
            "tool_result",
            "assistant",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result",
            "assistant");
    assertThat(transcript.get(1).path("body").path("name").asString()).isEqualTo("current_time");
    assertThat(transcript.get(3).path("body").path("text").asString())
        .isEqualTo("Checking the box.");
    assertThat(transcript.get(8).path("body").path("text").asString())
        .isEqualTo("Waiting for the build.");

    // Each model call is a cost record of its tokens, priced at the model's rates ($3 in, $15
    // out per million).
    String execution = end.path("execution_id").asString();
    double usd = (100 + 200 + 300 + 400) * 3e-6 + (20 + 30 + 40 + 10) * 15e-6;
    assertThat(api.execution(execution).path("cost_usd").asDouble()).isCloseTo(usd, within(1e-9));
    JsonNode spent = api.costs("api-work");
    assertThat(spent.path("today").path("records").asLong()).isEqualTo(4);
    assertThat(spent.path("today").path("tokens").path("input").asLong()).isEqualTo(1000);
    assertThat(spent.path("today").path("tokens").path("output").asLong()).isEqualTo(100);
    assertThat(spent.path("today").path("api_usd").asDouble()).isCloseTo(usd, within(1e-9));

    // The signal wakes the session: the next turn goes on with the same conversation.
    model.answers(FakeModelApi.text("The build is green: done.").usage(500, 10));
    CortexProcess.Finished signalled =
        CortexProcess.run(
            CortexProcess.env(home), "signal", waitpoint, "--secret", secret, "--message", "green");
    assertThat(signalled.exitCode()).as(signalled.stderr()).isZero();
    api.awaitEntry(id, said("The build is green: done."), "the woken turn's answer");
    FakeModelApi.Request woken = since(from + 4, 1).get(0);
    List<JsonNode> history = messages(woken);
    assertThat(history.get(0).path("content").toString())
        .contains("Check the time and the box, then wait for the build.");
    assertThat(history.get(history.size() - 1).toString()).contains("green");
    assertThat(TestJson.JSON.writeValueAsString(api.transcriptAll(id))).doesNotContain(KEY);
  }

  @Test
  void stop_duringARemoteCommand_endsItsProcessGroupOnTheDevice() throws Exception {
    String id = create("stopped", Map.of("model", "claude-sonnet-4-5"));
    Path pids = work.resolve("stopped-pids");
    String command =
        "echo $$ > "
            + pids
            + ".tmp; sleep 300 & echo $! >> "
            + pids
            + ".tmp; mv "
            + pids
            + ".tmp "
            + pids
            + "; wait";
    model.answers(
        FakeModelApi.toolCall(
            "toolu_s",
            "remote_bash",
            TestJson.JSON.writeValueAsString(Map.of("device", "box1", "command", command))));

    JsonNode delivery = api.send(id, "Run the long thing.");
    assertThat(delivery.path("status").asString()).isEqualTo("started");
    Eventually.until("the remote command started", AgentServer.LIMIT, () -> Files.exists(pids));
    long[] started = Files.readAllLines(pids).stream().mapToLong(Long::parseLong).toArray();
    assertThat(AgentPrograms.alive(started[0])).isTrue();

    SessionApi.Answer stopped = api.call("stop", Map.of("session", id));
    assertThat(stopped.result().path("stopped").asBoolean()).as("%s", stopped.lines()).isTrue();

    api.awaitIdle(id);
    Eventually.until(
        "the remote shell and its sleep are gone",
        AgentServer.LIMIT,
        () -> !AgentPrograms.alive(started[0]) && !AgentPrograms.alive(started[1]));
    List<JsonNode> runs = api.executionsOf(id);
    assertThat(runs).extracting(r -> r.path("status").asString()).containsExactly("cancelled");
    assertThat(kinds(api.transcript(id))).contains("tool_use").endsWith("system");
  }

  @Test
  void send_duringAModelCall_joinsTheConversationBeforeTheNextCall_once() throws Exception {
    String id = create("injected", Map.of("model", "claude-sonnet-4-5"));
    int from = model.requests().size();
    ScriptedAnswer held =
        model.answer(
            FakeModelApi.reply()
                .hold()
                .toolCall("toolu_i", "current_time", "{\"timezone\":\"UTC\"}"));
    model.answers(FakeModelApi.text("Noted both."));

    assertThat(api.send(id, "first").path("status").asString()).isEqualTo("started");
    assertThat(held.awaitHeld()).isTrue();
    // The loop is inside a model call: the message is offered to the turn, which takes it (and
    // acknowledges it) only between two calls, after the send stopped waiting.
    assertThat(api.send(id, "second").path("status").asString()).isEqualTo("offered");
    held.release();

    api.awaitEntry(id, said("Noted both."), "the answer after the injection");
    api.awaitIdle(id);
    FakeModelApi.Request next = since(from, 2).get(1);
    List<JsonNode> history = messages(next);
    JsonNode last = history.get(history.size() - 1);
    assertThat(last.path("role").asString()).isEqualTo("user");
    assertThat(last.toString()).contains("tool_result").contains("second");
    assertThat(SessionApi.userTexts(api.transcript(id))).containsExactly("first", "second");
    assertThat(api.executionsOf(id)).hasSize(1);
  }

  @Test
  void overloadedModel_isRetried_thenItsFallbackAnswers() throws Exception {
    String id = create("fallback", Map.of("model", "primary"));
    int from = model.requests().size();
    for (int i = 0; i < 4; i++) {
      model.answers(FakeModelApi.failure(529).retryAfter("0"));
    }
    model.answers(FakeModelApi.text("From the backup.").usage(50, 5));

    SessionApi.Answer answer = api.follow(id, "hello");

    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    List<FakeModelApi.Request> asked = since(from, 5);
    assertThat(asked.subList(0, 4))
        .allSatisfy(
            r -> assertThat(r.body().path("model").asString()).isEqualTo("claude-sonnet-4-5"));
    assertThat(asked.get(4).body().path("model").asString()).isEqualTo("claude-haiku-4-5");
    List<JsonNode> transcript = api.transcript(id);
    List<String> notes =
        transcript.stream()
            .filter(e -> e.path("kind").asString().equals("note"))
            .map(e -> e.path("body").path("text").asString())
            .toList();
    assertThat(notes).hasSize(4);
    assertThat(notes.subList(0, 3)).allSatisfy(n -> assertThat(n).contains("Retrying"));
    assertThat(notes.get(3)).contains("backup");
    assertThat(transcript.get(transcript.size() - 1).path("body").path("text").asString())
        .isEqualTo("From the backup.");
  }

  @Test
  void conversationOutgrowingTheContext_isShortenedThenSummarised() throws Exception {
    String id =
        create(
            "tiny",
            Map.of("model", "tiny", "tool_allowlist", List.of("current_time", "remote_bash")));
    int from = model.requests().size();
    String bigCall =
        TestJson.JSON.writeValueAsString(
            Map.of("device", "box1", "command", "head -c 20000 /dev/zero | tr '\\0' x"));
    model.answers(
        FakeModelApi.toolCall("toolu_b1", "remote_bash", bigCall), FakeModelApi.text("ok"));
    assertThat(api.follow(id, "list it").result().path("status").asString()).isEqualTo("completed");
    model.answers(FakeModelApi.text("fine"));
    assertThat(api.follow(id, "next").result().path("status").asString()).isEqualTo("completed");

    // The third turn's first call carries the old listing shortened.
    model.answers(
        FakeModelApi.toolCall("toolu_b2", "remote_bash", bigCall),
        FakeModelApi.text("SUMMARY: a listing of 20000 x was made."),
        FakeModelApi.text("done"));
    assertThat(api.follow(id, "again").result().path("status").asString()).isEqualTo("completed");

    List<FakeModelApi.Request> asked = since(from, 6);
    assertThat(toolResult(asked.get(0 + 3), "toolu_b1"))
        .contains("characters cut to fit the context");
    FakeModelApi.Request summary = asked.get(4);
    assertThat(messages(summary).get(messages(summary).size() - 1).toString())
        .contains("Summarise");
    FakeModelApi.Request after = asked.get(5);
    assertThat(messages(after).get(0).toString())
        .contains("[A summary of the earlier conversation]")
        .contains("SUMMARY: a listing of 20000 x was made.");
    List<String> notes =
        api.transcript(id).stream()
            .filter(e -> e.path("kind").asString().equals("note"))
            .map(e -> e.path("body").path("text").asString())
            .toList();
    assertThat(notes).anyMatch(n -> n.contains("shortened")).anyMatch(n -> n.contains("summary"));
  }

  @Test
  void openAiCompatibleLocalServer_needsNoKey_andGetsToolsInItsOwnShape() throws Exception {
    String id = create("local", Map.of("model", "local-llama"));
    int from = model.requests().size();
    model.answers(
        FakeModelApi.toolCall("call_1", "current_time", "{\"timezone\":", "\"UTC\"}"),
        FakeModelApi.text("It is noon in UTC."));

    SessionApi.Answer answer = api.follow(id, "What time is it?");

    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    List<FakeModelApi.Request> asked = since(from, 2);
    assertThat(asked.get(0).path()).isEqualTo("/v1/chat/completions");
    assertThat(asked.get(0).header("authorization")).isNull();
    assertThat(offeredTools(asked.get(0))).contains("current_time");
    assertThat(messages(asked.get(1)))
        .anySatisfy(m -> assertThat(m.path("role").asString()).isEqualTo("tool"));
    assertThat(
            api.transcript(id)
                .get(api.transcript(id).size() - 1)
                .path("body")
                .path("text")
                .asString())
        .isEqualTo("It is noon in UTC.");
  }

  @Test
  void create_withAnUnknownModelOrAMissingKey_isRefusedAtOnce() throws Exception {
    SessionApi.Answer unknown =
        api.call(
            "create",
            Map.of("backend", "api", "model", "no-such-model", "working_dir", work.toString()));
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.message()).contains("no-such-model").contains("primary");

    SessionApi.Answer keyless =
        api.call(
            "create", Map.of("backend", "api", "model", "gpt-4o", "working_dir", work.toString()));
    assertThat(keyless.status()).isEqualTo(400);
    assertThat(keyless.message()).contains("OPENAI_API_KEY");

    SessionApi.Answer thinking =
        api.call(
            "create",
            Map.of("backend", "api", "thinking", "extreme", "working_dir", work.toString()));
    assertThat(thinking.status()).isEqualTo(400);
    assertThat(thinking.message()).contains("off, low, medium or high");
  }

  @Test
  void refusedKey_failsTheTurnWithTheProvidersWords_withoutTheKey() throws Exception {
    String id = create("refused", Map.of("model", "claude-sonnet-4-5"));
    model.answers(FakeModelApi.failure(401).message("invalid x-api-key: " + KEY));

    SessionApi.Answer answer = api.follow(id, "hello");

    JsonNode end = answer.result();
    assertThat(end.path("status").asString()).isEqualTo("failed");
    assertThat(end.path("error").asString()).contains("invalid x-api-key").doesNotContain(KEY);
    assertThat(TestJson.JSON.writeValueAsString(api.transcriptAll(id))).doesNotContain(KEY);
  }

  @Test
  void thinking_ofTheSession_reachesTheModelAsItsThinkingBudget_andItsContext() throws Exception {
    String id =
        create(
            "thoughtful",
            Map.of(
                "model",
                "claude-sonnet-4-5",
                "thinking",
                "high",
                "tool_allowlist",
                List.of("cortex_context")));
    int from = model.requests().size();
    model.answers(
        FakeModelApi.reply()
            .thinking("Let me look.", "sig-1")
            .toolCall("toolu_c", "cortex_context", "{}"),
        FakeModelApi.text("I think hard."));

    assertThat(api.follow(id, "How hard do you think?").result().path("status").asString())
        .isEqualTo("completed");

    List<FakeModelApi.Request> asked = since(from, 2);
    JsonNode thinking = asked.get(0).body().path("thinking");
    assertThat(thinking.path("type").asString()).isEqualTo("enabled");
    assertThat(thinking.path("budget_tokens").asInt()).isEqualTo(24576);
    JsonNode context = TestJson.JSON.readTree(toolResult(asked.get(1), "toolu_c"));
    assertThat(context.path("backend").asString()).isEqualTo("api");
    assertThat(context.path("provider").asString()).isEqualTo("anthropic");
    assertThat(context.path("thinking").asString()).isEqualTo("high");
    assertThat(asked.get(1).body().path("messages").toString())
        .as("the thinking block goes back with its signature")
        .contains("sig-1");
    JsonNode shown = api.show(id);
    assertThat(shown.path("provider").asString()).isEqualTo("anthropic");
    assertThat(shown.path("thinking").asString()).isEqualTo("high");
  }
}
