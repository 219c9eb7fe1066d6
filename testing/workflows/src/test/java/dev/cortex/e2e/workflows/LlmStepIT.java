package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static dev.cortex.testing.FakeModelApi.failure;
import static dev.cortex.testing.FakeModelApi.text;
import static dev.cortex.testing.WorkflowServer.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.FakeModelApi;
import dev.cortex.testing.TestJson;
import dev.cortex.testing.WorkflowServer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code llm} steps run by the built program over MCP, against a fake model API on a loopback port:
 * the OpenAI-compatible wire, retries by the step's policy as the failure's kind allows, and keys
 * kept out of traces.
 */
class LlmStepIT {
  static final String OPENAI_KEY = "sk-e2e-openai-not-a-real-key-01";
  static final String ANTHROPIC_KEY = "sk-ant-e2e-not-a-real-key-02";

  @TempDir Path home;
  @TempDir Path work;

  private FakeModelApi api;
  private WorkflowServer server;

  @BeforeEach
  void start() {
    api = FakeModelApi.start();
    server =
        WorkflowServer.start(
            home,
            Map.of(
                "OPENAI_API_KEY",
                OPENAI_KEY,
                "CORTEX_OPENAI_BASE_URL",
                api.url(),
                "ANTHROPIC_API_KEY",
                ANTHROPIC_KEY,
                "CORTEX_ANTHROPIC_BASE_URL",
                api.url()));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    api.close();
  }

  @Test
  void openAiStep_answersJson_andItsCostPricesCacheReadsAtTheirRate() throws Exception {
    api.answers(
        text("```json\n{\"colours\": [\"red\", \"blue\"]}\n```")
            .model("gpt-4o-mini-2024-07-18")
            .usage(800, 20)
            .cache(200, 0));
    String manifest =
        WorkflowServer.manifest(
            work,
            "colours",
            """
            name: colours
            version: "1"
            capabilities: [network]
            steps:
              - id: ask
                kind: llm
                with: {provider: openai, model: gpt-4o-mini, prompt: Two colours, json: true, max_tokens: 50}
            """);

    JsonNode trace = server.run(manifest, args());

    assertThat(trace.path("status").asString()).as(trace.toString()).isEqualTo("succeeded");
    JsonNode ask = step(trace, "ask");
    assertThat(ask.path("output").path("json"))
        .isEqualTo(TestJson.JSON.readTree("{\"colours\":[\"red\",\"blue\"]}"));
    assertThat(ask.path("output").path("model").asString()).isEqualTo("gpt-4o-mini-2024-07-18");
    assertThat(ask.path("output").path("stop_reason").asString()).isEqualTo("stop");
    JsonNode price =
        TestJson.JSON
            .readTree(
                WorkflowServer.repository()
                    .resolve(
                        "foundation/models/src/main/resources/dev/cortex/models/llm-prices.json"))
            .path("models")
            .path("gpt-4o-mini");
    BigDecimal usd =
        price
            .path("input")
            .decimalValue()
            .multiply(BigDecimal.valueOf(800))
            .add(price.path("cache_read").decimalValue().multiply(BigDecimal.valueOf(200)))
            .add(price.path("output").decimalValue().multiply(BigDecimal.valueOf(20)))
            .movePointLeft(6);
    assertThat(ask.path("cost").path("input_tokens").asLong()).isEqualTo(1000);
    assertThat(ask.path("cost").path("output_tokens").asLong()).isEqualTo(20);
    assertThat(ask.path("cost").path("usd").decimalValue()).isEqualByComparingTo(usd);

    FakeModelApi.Request sent = api.lastRequest();
    assertThat(sent.path()).isEqualTo("/v1/chat/completions");
    assertThat(sent.header("authorization")).isEqualTo("Bearer " + OPENAI_KEY);
    assertThat(sent.body().path("max_tokens").asInt()).isEqualTo(50);
    assertThat(sent.body().path("messages").path(0).path("role").asString()).isEqualTo("system");
    assertThat(sent.body().path("messages").path(0).path("content").asString()).contains("JSON");
    assertThat(sent.body().path("messages").path(1).path("content").asString())
        .isEqualTo("Two colours");
  }

  @Test
  void rateLimitedStep_isRetriedByItsPolicy_anAuthFailureIsNot_andNoKeyReachesTheTrace()
      throws Exception {
    api.answers(
        failure(429).retryAfter("1").message("slow down"),
        text("Fine, then."),
        failure(401).message("invalid x-api-key " + ANTHROPIC_KEY));
    String manifest =
        WorkflowServer.manifest(
            work,
            "twice",
            """
            name: twice
            version: "1"
            capabilities: [network]
            steps:
              - id: first
                kind: llm
                retry: {attempts: 3, backoff: 100ms}
                with: {model: claude-haiku-4-5, prompt: Hello}
              - id: second
                kind: llm
                retry: {attempts: 3, backoff: 100ms}
                with: {model: claude-haiku-4-5, prompt: Again}
            """);

    JsonNode trace = server.run(manifest, args());

    JsonNode first = step(trace, "first");
    assertThat(first.path("attempts").asInt()).isEqualTo(2);
    assertThat(first.path("output").path("text").asString()).isEqualTo("Fine, then.");
    JsonNode second = step(trace, "second");
    assertThat(second.path("attempts").asInt()).isEqualTo(1);
    assertThat(second.path("error").path("kind").asString()).isEqualTo("llm");
    assertThat(second.path("error").path("message").asString())
        .isEqualTo("the anthropic API answered HTTP 401: invalid x-api-key [redacted]");
    assertThat(trace.path("status").asString()).isEqualTo("failed");
    assertThat(api.requests()).hasSize(3);
    String runId = trace.path("run_id").asString();
    String kept = server.ok("runs_show", args("run_id", runId, "full", true)).toString();
    assertThat(trace.toString()).doesNotContain(ANTHROPIC_KEY);
    assertThat(kept).doesNotContain(ANTHROPIC_KEY);
  }
}
