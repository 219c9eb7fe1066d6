package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.WorkflowServer.example;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Listed;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * The shipped example workflows, run over MCP on stdio against the built program. Everything they
 * reach is local: a loopback HTTP server stands in for a web service and for the Anthropic Messages
 * API, and a {@code cortex} script on the server's PATH starts the built jar as the second server
 * of {@code mcp-relay}.
 */
class WorkflowExamplesIT {
  static final String API_KEY = "sk-test-not-a-real-key";
  static final String ANSWER_MODEL = "claude-haiku-4-5-20251001";
  static final long INPUT_TOKENS = 1234;
  static final long OUTPUT_TOKENS = 56;

  @TempDir static Path home;
  @TempDir static Path work;

  static com.sun.net.httpserver.HttpServer web;
  static String base;
  static final List<JsonNode> llmRequests = new CopyOnWriteArrayList<>();
  static final List<String> llmKeys = new CopyOnWriteArrayList<>();
  static Path relayMarker;
  static WorkflowServer server;

  @BeforeAll
  static void start() throws IOException {
    web = com.sun.net.httpserver.HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    web.createContext(
        "/health",
        exchange -> answer(exchange, 200, "{\"status\":\"green\",\"version\":\"2.4.1\"}"));
    web.createContext(
        "/missing", exchange -> answer(exchange, 404, "{\"error\":\"no such page\"}"));
    web.createContext("/v1/messages", WorkflowExamplesIT::messages);
    web.start();
    base = "http://127.0.0.1:" + web.getAddress().getPort();

    Path bin = Files.createDirectories(work.resolve("bin"));
    relayMarker = work.resolve("relay-started");
    Path cortex = bin.resolve("cortex");
    Files.writeString(
        cortex,
        "#!/bin/sh\n"
            + "echo \"$@\" >> '"
            + relayMarker
            + "'\n"
            + "exec '"
            + CortexProcess.java()
            + "' -XX:+UseSerialGC -jar '"
            + CortexProcess.jar().toAbsolutePath()
            + "' \"$@\"\n");
    assertThat(cortex.toFile().setExecutable(true)).isTrue();

    server =
        WorkflowServer.start(
            home,
            Map.of(
                "PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
                "ANTHROPIC_API_KEY", API_KEY,
                "CORTEX_ANTHROPIC_BASE_URL", base));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (web != null) {
      web.stop(0);
    }
  }

  /** A fixed Messages API answer with known usage; the request is kept for the test to read. */
  static void messages(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    llmRequests.add(TestJson.JSON.readTree(body));
    llmKeys.add(exchange.getRequestHeaders().getFirst("x-api-key"));
    answer(
        exchange,
        200,
        "{\"id\":\"msg_test\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\""
            + ANSWER_MODEL
            + "\",\"content\":[{\"type\":\"text\",\"text\":\"Cortex runs workflows and keeps"
            + " their traces.\"}],\"stop_reason\":\"end_turn\",\"usage\":{\"input_tokens\":"
            + INPUT_TOKENS
            + ",\"output_tokens\":"
            + OUTPUT_TOKENS
            + "}}");
  }

  static void answer(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (var out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  static List<String> statuses(JsonNode trace) {
    List<String> statuses = new ArrayList<>();
    trace.path("steps").forEach(s -> statuses.add(s.path("status").asString()));
    return statuses;
  }

  static Stream<Arguments> examples() {
    return Stream.of(
        Arguments.of("shell-pipeline", args("dir", "/")),
        Arguments.of("http-status", args("url", "http://127.0.0.1:1/")),
        Arguments.of("sqlite-report", args("db", "/tmp/never-opened-by-check.db")),
        Arguments.of("mcp-relay", args()),
        Arguments.of("llm-summary", args("text", "Some text.")),
        Arguments.of("fan-out", args()),
        Arguments.of("flaky-retry", args("state_dir", "/tmp")),
        Arguments.of("slow-timeout", args()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void everyExample_checksAndShows(String name, Map<String, Object> params) {
    JsonNode check = server.ok("check", args("workflow", example(name), "params", params));
    JsonNode shown = server.ok("show", args("workflow", example(name)));

    assertThat(check.path("ok").asBoolean()).isTrue();
    assertThat(check.path("workflow").path("name").asString()).isEqualTo(name);
    assertThat(check.path("workflow").path("description").asString()).isNotBlank();
    assertThat(check.path("source").path("kind").asString()).isEqualTo("path");
    assertThat(check.path("engine").asString()).isEqualTo("embedded");
    assertThat(shown.path("steps")).isNotEmpty();
    assertThat(shown.path("steps").size()).isEqualTo(check.path("steps").size());
  }

  @Test
  void shellPipeline_countsFilesByExtension() throws IOException {
    Path dir = Files.createDirectories(work.resolve("listing"));
    for (String file : List.of("a.txt", "b.txt", "notes.md", "Makefile")) {
      Files.writeString(dir.resolve(file), file);
    }
    Files.createDirectories(dir.resolve("sub.dir"));

    JsonNode trace = server.run(example("shell-pipeline"), args("dir", dir.toString()));

    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    assertThat(trace.path("parameters")).isEqualTo(json("{\"dir\":\"" + dir + "\",\"top\":10}"));
    assertThat(statuses(trace)).containsExactly("succeeded", "succeeded", "succeeded");
    assertThat(trace.path("steps_completed").asInt()).isEqualTo(3);
    assertThat(step(trace, "list").path("output_summary").asString()).isEqualTo("exit 0, 5 lines");
    assertThat(step(trace, "files").path("output"))
        .isEqualTo(json("[\"Makefile\",\"a.txt\",\"b.txt\",\"notes.md\"]"));
    assertThat(step(trace, "by_extension").path("output_summary").asString())
        .isEqualTo("array of 3");
    assertThat(step(trace, "by_extension").path("output"))
        .isEqualTo(
            json(
                "[{\"extension\":\"txt\",\"count\":2},{\"extension\":\"(none)\",\"count\":1},"
                    + "{\"extension\":\"md\",\"count\":1}]"));
  }

  @Test
  void httpStatus_summarisesStatusAndField() {
    JsonNode up =
        server.run(example("http-status"), args("url", base + "/health", "field", "version"));
    JsonNode missing =
        server.run(example("http-status"), args("url", base + "/missing", "field", "error"));

    assertThat(up.path("status").asString()).isEqualTo("succeeded");
    assertThat(step(up, "fetch").path("attempts").asInt()).isEqualTo(1);
    assertThat(step(up, "fetch").path("output_summary").asString()).startsWith("HTTP 200, ");
    assertThat(step(up, "fetch").path("output").path("body").path("status").asString())
        .isEqualTo("green");
    assertThat(step(up, "summary").path("output"))
        .isEqualTo(
            json(
                "{\"status\":200,\"ok\":true,\"content_type\":\"application/json\","
                    + "\"field\":\"version\",\"value\":\"2.4.1\"}"));
    assertThat(missing.path("status").asString()).isEqualTo("succeeded");
    assertThat(step(missing, "fetch").path("output_summary").asString()).startsWith("HTTP 404, ");
    assertThat(step(missing, "summary").path("output").path("ok").asBoolean()).isFalse();
    assertThat(step(missing, "summary").path("output").path("value").asString())
        .isEqualTo("no such page");
  }

  @Test
  void sqliteReport_elidesTheLargeOutput_andRunsShowFetchesIt() throws IOException {
    Path db = work.resolve("orders.db");

    JsonNode trace = server.run(example("sqlite-report"), args("db", db.toString()));

    String runId = trace.path("run_id").asString();
    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    assertThat(statuses(trace)).containsOnly("succeeded").hasSize(5);
    assertThat(step(trace, "fill").path("output_summary").asString()).isEqualTo("500 rows updated");
    JsonNode orders = step(trace, "orders");
    assertThat(orders.path("output_summary").asString()).isEqualTo("500 rows");
    assertThat(orders.path("output").isNull()).isTrue();
    JsonNode elided = orders.path("output_elided");
    assertThat(elided.path("bytes").asInt()).isGreaterThan(2048);
    assertThat(elided.path("note").asString())
        .startsWith("Output of ")
        .contains(
            " elided. Fetch it with runs_show {\"run_id\":\""
                + runId
                + "\",\"activity\":\"orders\"}")
        .endsWith("(an answer over 100000 characters comes as a file and a 2 KB preview).");
    assertThat(elided.path("runs_show"))
        .isEqualTo(json("{\"run_id\":\"" + runId + "\",\"activity\":\"orders\"}"));
    JsonNode totals = step(trace, "totals");
    assertThat(totals.has("output_elided")).isFalse();
    assertThat(totals.path("output").path("rows"))
        .isEqualTo(
            json(
                "[{\"region\":\"north\",\"orders\":166,\"amount\":8281},"
                    + "{\"region\":\"south\",\"orders\":167,\"amount\":8250},"
                    + "{\"region\":\"west\",\"orders\":167,\"amount\":8219}]"));

    @SuppressWarnings("unchecked")
    Map<String, Object> fetch = TestJson.JSON.convertValue(elided.path("runs_show"), Map.class);
    JsonNode shown = server.ok("runs_show", fetch);

    assertThat(shown.path("run_id").asString()).isEqualTo(runId);
    assertThat(shown.path("status").asString()).isEqualTo("succeeded");
    JsonNode rows = shown.path("step").path("output").path("rows");
    assertThat(shown.path("step").path("output").path("row_count").asInt()).isEqualTo(500);
    assertThat(rows.size()).isEqualTo(500);
    assertThat(rows.get(0)).isEqualTo(json("{\"id\":1,\"region\":\"south\",\"amount\":7}"));
    assertThat(rows.get(499)).isEqualTo(json("{\"id\":500,\"region\":\"west\",\"amount\":0}"));

    JsonNode stillElided = server.ok("runs_show", args("run_id", runId));
    JsonNode full = server.ok("runs_show", args("run_id", runId, "full", true));
    JsonNode onDisk = TestJson.JSON.readTree(home.resolve("runs").resolve(runId + ".json"));
    assertThat(step(stillElided, "orders").path("output").isNull()).isTrue();
    assertThat(step(full, "orders").path("output").path("rows").size()).isEqualTo(500);
    assertThat(step(onDisk, "orders").path("output")).isEqualTo(shown.path("step").path("output"));
  }

  @Test
  void mcpRelay_relaysTheAnswerOfASecondCortexServer() throws IOException {
    JsonNode trace = server.run(example("mcp-relay"), args("timezone", "Asia/Tokyo"));

    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    JsonNode now = step(trace, "now");
    assertThat(now.path("kind").asString()).isEqualTo("mcp");
    assertThat(now.path("output_summary").asString())
        .isEqualTo("tool current_time: object with 6 keys");
    assertThat(now.path("output").path("timezone").asString()).isEqualTo("Asia/Tokyo");
    assertThat(now.path("output").path("utc_offset").asString()).isEqualTo("+09:00");
    JsonNode relay = step(trace, "relay").path("output");
    assertThat(relay.path("zone").asString()).isEqualTo("Asia/Tokyo");
    assertThat(relay.path("local").asString())
        .isEqualTo(now.path("output").path("local").asString())
        .endsWith("+09:00");
    assertThat(Files.readAllLines(relayMarker)).contains("mcp --bundles core");
  }

  @Test
  void llmSummary_costIsTheTokensTimesTheShippedPrice() throws IOException {
    int before = llmRequests.size();

    JsonNode trace =
        server.run(
            example("llm-summary"),
            args("text", "Cortex is one program that serves MCP.", "sentences", 1));

    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    JsonNode summary = step(trace, "summary");
    assertThat(summary.path("attempts").asInt()).isEqualTo(1);
    assertThat(summary.path("model").asString()).isEqualTo(ANSWER_MODEL);
    assertThat(summary.path("output").path("text").asString())
        .isEqualTo("Cortex runs workflows and keeps their traces.");
    assertThat(summary.path("output").path("stop_reason").asString()).isEqualTo("end_turn");
    assertThat(summary.path("output").has("json")).isFalse();

    JsonNode price =
        TestJson.JSON
            .readTree(
                WorkflowServer.repository()
                    .resolve(
                        "foundation/models/src/main/resources/dev/cortex/models/llm-prices.json"))
            .path("models")
            .path("claude-haiku-4-5");
    BigDecimal usd =
        price
            .path("input")
            .decimalValue()
            .multiply(BigDecimal.valueOf(INPUT_TOKENS))
            .add(price.path("output").decimalValue().multiply(BigDecimal.valueOf(OUTPUT_TOKENS)))
            .movePointLeft(6);
    for (JsonNode cost : List.of(summary.path("cost"), trace.path("cost"))) {
      assertThat(cost.path("usd").isNull()).isFalse();
      assertThat(cost.path("usd").decimalValue()).isEqualByComparingTo(usd);
      assertThat(cost.path("input_tokens").asLong()).isEqualTo(INPUT_TOKENS);
      assertThat(cost.path("output_tokens").asLong()).isEqualTo(OUTPUT_TOKENS);
      assertThat(cost.path("unpriced").asInt()).isZero();
    }
    assertThat(usd).isPositive();

    assertThat(llmRequests).hasSize(before + 1);
    JsonNode request = llmRequests.get(before);
    assertThat(llmKeys.get(before)).isEqualTo(API_KEY);
    assertThat(request.path("model").asString()).isEqualTo("claude-haiku-4-5");
    assertThat(request.path("max_tokens").asInt()).isEqualTo(400);
    assertThat(request.path("system").asString()).doesNotContain("JSON");
    assertThat(request.path("messages").get(0).path("content").asString())
        .startsWith("Summarise the following text in at most 1 sentences.")
        .endsWith("Cortex is one program that serves MCP.");
  }

  @Test
  void fanOut_outputsAreInItemOrder() {
    List<String> words = List.of("one", "two", "three", "four", "five", "six", "seven");

    JsonNode trace = server.run(example("fan-out"), args("items", words));

    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    JsonNode shout = step(trace, "shout");
    assertThat(shout.path("output_summary").asString()).isEqualTo("7 items");
    assertThat(shout.path("attempts").asInt()).isEqualTo(7);
    List<String> stdout = new ArrayList<>();
    shout.path("output").forEach(o -> stdout.add(o.path("stdout").asString()));
    assertThat(stdout)
        .containsExactly("ONE\n", "TWO\n", "THREE\n", "FOUR\n", "FIVE\n", "SIX\n", "SEVEN\n");
    List<Integer> indexes = new ArrayList<>();
    shout.path("items").forEach(i -> indexes.add(i.path("index").asInt()));
    assertThat(indexes).containsExactly(0, 1, 2, 3, 4, 5, 6);
    assertThat(step(trace, "gathered").path("output"))
        .isEqualTo(json("[\"ONE\",\"TWO\",\"THREE\",\"FOUR\",\"FIVE\",\"SIX\",\"SEVEN\"]"));
  }

  @Test
  void flakyRetry_succeedsOnTheThirdAttempt_thenTheFailingStepEndsTheRun() throws IOException {
    Path state = Files.createDirectories(work.resolve("flaky-state"));

    JsonNode trace = server.run(example("flaky-retry"), args("state_dir", state.toString()));

    assertThat(trace.path("status").asString()).isEqualTo("failed");
    assertThat(statuses(trace)).containsExactly("succeeded", "failed", "pending");
    JsonNode flaky = step(trace, "flaky");
    assertThat(flaky.path("attempts").asInt()).isEqualTo(3);
    assertThat(flaky.path("error").isNull()).isTrue();
    assertThat(flaky.path("output").path("stdout").asString())
        .isEqualTo("succeeded on attempt 3\n");
    assertThat(Files.readString(state.resolve("flaky-attempts")).strip()).isEqualTo("3");
    JsonNode broken = step(trace, "broken");
    assertThat(broken.path("attempts").asInt()).isEqualTo(1);
    assertThat(broken.path("error"))
        .isEqualTo(
            json("{\"kind\":\"exit_status\",\"message\":\"exit 3: this step always fails\"}"));
    assertThat(broken.path("output").path("exit_code").asInt()).isEqualTo(3);
    assertThat(broken.path("output").path("stderr").asString())
        .isEqualTo("this step always fails\n");
    JsonNode never = step(trace, "never");
    assertThat(never.path("attempts").asInt()).isZero();
    assertThat(never.path("started_at").isNull()).isTrue();
    assertThat(trace.path("error"))
        .isEqualTo(
            json(
                "{\"step\":\"broken\",\"kind\":\"exit_status\","
                    + "\"message\":\"exit 3: this step always fails\"}"));
    assertThat(trace.path("steps_completed").asInt()).isEqualTo(2);

    String runId = trace.path("run_id").asString();
    JsonNode kept = server.ok("runs_show", args("run_id", runId));
    assertThat(kept.path("status").asString()).isEqualTo("failed");
    assertThat(step(kept, "broken").path("error")).isEqualTo(broken.path("error"));
    JsonNode failed =
        server.ok("runs_list", args("workflow", "flaky-retry", "status", "failed", "limit", 5));
    assertThat(failed.path("count").asInt()).isEqualTo(1);
    JsonNode row = failed.path("runs").get(0);
    assertThat(row.path("run_id").asString()).isEqualTo(runId);
    assertThat(row.path("steps_completed").asInt()).isEqualTo(2);
    assertThat(row.path("error")).isEqualTo(trace.path("error"));
    assertThat(
            server
                .ok("runs_list", args("workflow", "flaky-retry", "status", "succeeded"))
                .path("count")
                .asInt())
        .isZero();
  }

  @Test
  void slowTimeout_failsTheStepWithKindTimeout() {
    JsonNode trace = server.run(example("slow-timeout"), args());

    assertThat(trace.path("status").asString()).isEqualTo("failed");
    JsonNode slow = step(trace, "slow");
    assertThat(slow.path("status").asString()).isEqualTo("failed");
    assertThat(slow.path("attempts").asInt()).isEqualTo(1);
    assertThat(slow.path("error").path("kind").asString()).isEqualTo("timeout");
    assertThat(slow.path("error").path("message").asString())
        .isEqualTo("step 'slow' timed out after 1 s");
    assertThat(trace.path("error").path("kind").asString()).isEqualTo("timeout");
  }

  @Test
  void library_savedByTheCli_runsByNameOverMcp_andNoToolSaves() throws Exception {
    CortexProcess.Finished saved =
        CortexProcess.run(CortexProcess.env(home), "workflows", "save", example("fan-out"));
    CortexProcess.Finished listed =
        CortexProcess.run(CortexProcess.env(home), "workflows", "list", "--json");

    assertThat(saved.exitCode()).as(saved.stderr()).isZero();
    assertThat(saved.stdout()).contains("saved fan-out 1.0.0");
    assertThat(TestJson.JSON.readTree(listed.stdout()).path("workflows").get(0).path("name"))
        .isEqualTo(json("\"fan-out\""));

    JsonNode trace = server.run("fan-out", args("items", List.of("x", "y")));

    assertThat(trace.path("status").asString()).isEqualTo("succeeded");
    assertThat(trace.path("source").path("kind").asString()).isEqualTo("library");
    assertThat(trace.path("source").path("ref").asString()).isEqualTo("fan-out");
    assertThat(step(trace, "gathered").path("output")).isEqualTo(json("[\"X\",\"Y\"]"));
    JsonNode status = server.ok("status", args());
    assertThat(status.path("library").asInt()).isEqualTo(1);
    assertThat(status.path("home").asString()).isEqualTo(home.toAbsolutePath().toString());
    assertThat(status.path("engine")).isEqualTo(json("{\"name\":\"embedded\",\"reachable\":true}"));
    assertThat(status.path("activity_kinds"))
        .isEqualTo(json("[\"shell\",\"http\",\"sql\",\"mcp\",\"transform\",\"llm\"]"));
    assertThat(status.path("runs").path("total").asInt())
        .isEqualTo(server.ok("runs_list", args("limit", 200)).path("count").asInt());
    List<String> names = server.tools().stream().map(Listed::name).toList();
    assertThat(names).contains("check", "show", "run", "runs_list", "runs_show", "status");
    assertThat(names).noneMatch(n -> n.contains("save") || n.contains("library"));
  }

  static JsonNode json(String text) {
    return TestJson.JSON.readTree(text);
  }
}
