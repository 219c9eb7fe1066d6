package dev.cortex.workflows.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.models.ModelPrices;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class LlmActivityTest {
  @TempDir Path temp;

  private final LlmActivity activity = new LlmActivity();
  private final RunScope scope = new RunScope();
  private final CountDownLatch release = new CountDownLatch(1);
  private HttpServer server;
  private volatile int status = 200;
  private volatile String answer = "{}";
  private volatile boolean hang;
  private volatile Headers receivedHeaders;
  private volatile String receivedPath;
  private volatile JsonNode receivedBody;
  private Map<String, String> variables;

  @BeforeEach
  void setUp() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort();
    variables = new HashMap<>();
    variables.put("CORTEX_ANTHROPIC_BASE_URL", base);
    variables.put("CORTEX_OPENAI_BASE_URL", base + "/");
    variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
    variables.put("OPENAI_API_KEY", "sk-openai-test");
  }

  @AfterEach
  void tearDown() {
    release.countDown();
    server.stop(0);
    scope.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      receivedBody = Json.mapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    receivedHeaders = exchange.getRequestHeaders();
    receivedPath = exchange.getRequestURI().getPath();
    if (hang) {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] body = answer.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("content-type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Test
  void run_anthropic_sendsAMessagesRequestAndReturnsTheAnswer() throws Exception {
    answer =
        """
        {"id":"msg_1","type":"message","role":"assistant",
         "model":"claude-sonnet-4-5-20250929",
         "content":[{"type":"text","text":"Hello"},{"type":"text","text":" there"}],
         "stop_reason":"end_turn",
         "usage":{"input_tokens":1234,"output_tokens":256}}
        """;

    ActivityResult result =
        activity.run(
            input(
                Map.of("model", "claude-sonnet-4-5", "prompt", "Say hello", "system", "Be brief")));

    assertThat(receivedPath).isEqualTo("/v1/messages");
    assertThat(receivedHeaders.getFirst("x-api-key")).isEqualTo("sk-ant-test");
    assertThat(receivedHeaders.getFirst("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(receivedHeaders.getFirst("Authorization")).isNull();
    assertThat(receivedBody.path("model").asString()).isEqualTo("claude-sonnet-4-5");
    assertThat(receivedBody.path("max_tokens").asInt()).isEqualTo(1024);
    assertThat(receivedBody.path("system").asString()).isEqualTo("Be brief");
    assertThat(receivedBody.has("temperature")).isFalse();
    assertThat(receivedBody.path("messages"))
        .isEqualTo(Json.mapper().readTree("[{\"role\":\"user\",\"content\":\"Say hello\"}]"));

    assertThat(result.output())
        .isEqualTo(
            Json.mapper()
                .readTree(
                    "{\"text\":\"Hello there\",\"model\":\"claude-sonnet-4-5-20250929\","
                        + "\"stop_reason\":\"end_turn\"}"));
    assertThat(result.cost().inputTokens()).isEqualTo(1234);
    assertThat(result.cost().outputTokens()).isEqualTo(256);
    assertThat(result.cost().usd()).isEqualByComparingTo("0.007542");
    assertThat(result.cost().model()).isEqualTo("claude-sonnet-4-5-20250929");
    assertThat(result.summary()).isEqualTo("claude-sonnet-4-5: 1,234 in / 256 out tokens, $0.0075");
  }

  @Test
  void run_openai_sendsAChatCompletionRequestAndReturnsTheAnswer() throws Exception {
    answer =
        """
        {"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-2024-08-06",
         "choices":[{"index":0,"message":{"role":"assistant","content":"Hi!"},
                     "finish_reason":"stop"}],
         "usage":{"prompt_tokens":1000,"completion_tokens":100,"total_tokens":1100}}
        """;

    ActivityResult result =
        activity.run(
            input(
                Map.of(
                    "provider", "openai",
                    "model", "gpt-4o",
                    "prompt", "Greet me",
                    "system", "Be kind",
                    "max_tokens", 200,
                    "temperature", 0.5)));

    assertThat(receivedPath).isEqualTo("/v1/chat/completions");
    assertThat(receivedHeaders.getFirst("Authorization")).isEqualTo("Bearer sk-openai-test");
    assertThat(receivedHeaders.getFirst("x-api-key")).isNull();
    assertThat(receivedBody.path("model").asString()).isEqualTo("gpt-4o");
    assertThat(receivedBody.path("max_tokens").asInt()).isEqualTo(200);
    assertThat(receivedBody.path("temperature").asDouble()).isEqualTo(0.5);
    assertThat(receivedBody.path("messages"))
        .isEqualTo(
            Json.mapper()
                .readTree(
                    "[{\"role\":\"system\",\"content\":\"Be kind\"},"
                        + "{\"role\":\"user\",\"content\":\"Greet me\"}]"));

    assertThat(result.output().path("text").asString()).isEqualTo("Hi!");
    assertThat(result.output().path("stop_reason").asString()).isEqualTo("stop");
    assertThat(result.output().has("json")).isFalse();
    // gpt-4o: $2.50 in, $10 out per million tokens
    assertThat(result.cost().usd()).isEqualByComparingTo("0.0035");
    assertThat(result.summary()).isEqualTo("gpt-4o: 1,000 in / 100 out tokens, $0.0035");
  }

  @Test
  void run_unknownModel_costIsUnknown() throws Exception {
    answer = anthropicAnswer("acme-7", "ok");

    ActivityResult result = activity.run(input(Map.of("model", "acme-7", "prompt", "hi")));

    assertThat(result.cost().usd()).isNull();
    assertThat(result.cost().priced()).isFalse();
    assertThat(result.summary()).isEqualTo("acme-7: 10 in / 5 out tokens, cost unknown");
  }

  @Test
  void run_json_asksForJsonAndParsesAFencedAnswer() throws Exception {
    answer = anthropicAnswer("claude-haiku-4-5", "```json\n{\"items\": [1, 2]}\n```");

    ActivityResult result =
        activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "list", "json", true)));

    assertThat(receivedBody.path("system").asString()).contains("JSON");
    assertThat(result.output().path("json")).isEqualTo(Json.mapper().readTree("{\"items\":[1,2]}"));
    assertThat(result.output().path("text").asString()).startsWith("```json");
  }

  @Test
  void run_jsonWithUnparsableAnswer_failsWithInvalidOutput() {
    answer = anthropicAnswer("claude-haiku-4-5", "Sure! Here it is: {items: [1, 2]");

    assertThatThrownBy(
            () ->
                activity.run(
                    input(Map.of("model", "claude-haiku-4-5", "prompt", "list", "json", true))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("invalid_output");
              assertThat(f.output().path("text").asString()).startsWith("Sure!");
            });
  }

  @Test
  void run_rateLimited_failsRetryablyWithStatusAndTheApiMessage() {
    status = 429;
    answer =
        "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}";

    assertThatThrownBy(() -> activity.run(input(Map.of("model", "claude-opus-4-1", "prompt", "x"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("llm");
              assertThat(f.retryable()).isTrue();
              assertThat(f.getMessage())
                  .isEqualTo("the anthropic API answered HTTP 429: slow down");
              assertThat(f.output().path("status").asInt()).isEqualTo(429);
            });
  }

  @Test
  void run_badRequest_failsNotRetryable() {
    status = 400;
    answer = "{\"error\":{\"message\":\"max_tokens is too large\",\"type\":\"invalid_request\"}}";

    assertThatThrownBy(
            () ->
                activity.run(input(Map.of("provider", "openai", "model", "gpt-4o", "prompt", "x"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("llm");
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage())
                  .isEqualTo("the openai API answered HTTP 400: max_tokens is too large");
            });
  }

  @Test
  void run_stepTimeout_failsWithTimeout() {
    hang = true;

    assertThatThrownBy(
            () ->
                activity.run(
                    input(
                        Map.of("model", "claude-haiku-4-5", "prompt", "x"),
                        Duration.ofMillis(300))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("timeout");
              assertThat(f.retryable()).isTrue();
            });
  }

  @Test
  void run_noKeyAnywhere_failsWithMissingApiKey() {
    variables.remove("ANTHROPIC_API_KEY");

    assertThatThrownBy(
            () -> activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "x"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("missing_api_key");
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage())
                  .contains("ANTHROPIC_API_KEY")
                  .contains(temp.resolve("config").resolve("secrets.json").toString());
            });
    assertThat(receivedPath).isNull();
  }

  @Test
  void run_ownerOnlySecretsFile_suppliesTheKey() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    variables.remove("OPENAI_API_KEY");
    writeSecrets("rw-------", "{\"OPENAI_API_KEY\": \"sk-from-file\"}");
    answer = openAiAnswer("gpt-4o-mini", "ok");

    activity.run(input(Map.of("provider", "openai", "model", "gpt-4o-mini", "prompt", "x")));

    assertThat(receivedHeaders.getFirst("Authorization")).isEqualTo("Bearer sk-from-file");
  }

  @Test
  void run_secretsFileReadableByOthers_isRefused() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    variables.remove("ANTHROPIC_API_KEY");
    Path file = writeSecrets("rw-r--r--", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");

    assertThatThrownBy(
            () -> activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "x"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("secrets");
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage()).contains(file.toString()).contains("chmod 600");
            });
    assertThat(receivedPath).isNull();
  }

  @Test
  void run_environmentKey_winsOverTheSecretsFile() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    writeSecrets("rw-------", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");
    answer = anthropicAnswer("claude-haiku-4-5", "ok");

    activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "x")));

    assertThat(receivedHeaders.getFirst("x-api-key")).isEqualTo("sk-ant-test");
  }

  @Test
  void inputSchema_isClosedAndTakesNoKeyOrUrl() {
    @SuppressWarnings("unchecked")
    Map<String, Object> properties = (Map<String, Object>) activity.inputSchema().get("properties");

    assertThat(activity.inputSchema())
        .containsEntry("additionalProperties", false)
        .containsEntry("required", List.of("model", "prompt"));
    assertThat(properties.keySet())
        .containsExactly(
            "provider", "model", "prompt", "system", "max_tokens", "temperature", "json");
  }

  @Test
  void prices_matchExactNamesAndDatedSnapshotsOnly() {
    ModelPrices prices = ModelPrices.shipped();

    assertThat(prices.price("claude-sonnet-4-5")).isPresent();
    assertThat(prices.price("claude-sonnet-4-5-20250929"))
        .isEqualTo(prices.price("claude-sonnet-4-5"));
    assertThat(prices.price("gpt-4o-2024-08-06")).isEqualTo(prices.price("gpt-4o"));
    assertThat(prices.price("claude-3-5-haiku-latest")).isEqualTo(prices.price("claude-3-5-haiku"));
    assertThat(prices.price("gpt-4o-mini").orElseThrow().input())
        .isEqualByComparingTo(new BigDecimal("0.15"));
    assertThat(prices.price("gpt-4o-audio-preview")).isEmpty();
    assertThat(prices.price("claude-sonnet-4-5-experimental")).isEmpty();
    assertThat(prices.price("acme-7")).isEmpty();
  }

  @Test
  void prices_everyEntryHasPositivePricesAndTheFileDocumentsTheRule() throws Exception {
    JsonNode table;
    try (InputStream in = ModelPrices.class.getResourceAsStream(ModelPrices.RESOURCE)) {
      table = Json.mapper().readTree(in);
    }

    assertThat(table.path("note").asString()).contains("YYYYMMDD");
    assertThat(table.path("models").size()).isGreaterThan(10);
    for (Map.Entry<String, JsonNode> entry : table.path("models").properties()) {
      assertThat(entry.getValue().path("input").decimalValue()).as(entry.getKey()).isPositive();
      assertThat(entry.getValue().path("output").decimalValue()).as(entry.getKey()).isPositive();
    }
  }

  private Path writeSecrets(String permissions, String content) throws IOException {
    Path file = temp.resolve("config").resolve("secrets.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  private boolean posix() {
    return Files.getFileAttributeView(temp, PosixFileAttributeView.class) != null;
  }

  private static String anthropicAnswer(String model, String text) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", model);
    body.put("content", List.of(Map.of("type", "text", "text", text)));
    body.put("stop_reason", "end_turn");
    body.put("usage", Map.of("input_tokens", 10, "output_tokens", 5));
    return Json.write(body);
  }

  private static String openAiAnswer(String model, String text) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", model);
    body.put(
        "choices",
        List.of(
            Map.of(
                "message", Map.of("role", "assistant", "content", text), "finish_reason", "stop")));
    body.put("usage", Map.of("prompt_tokens", 10, "completion_tokens", 5));
    return Json.write(body);
  }

  private ActivityInput input(Map<String, Object> with) {
    return input(with, null);
  }

  private ActivityInput input(Map<String, Object> with, Duration timeout) {
    Step step = new Step("ask", StepKind.LLM, with, null, null, 1, timeout, null);
    Manifest manifest = new Manifest("t", "1", null, null, List.of("network"), null, List.of(step));
    ActivityEnvironment environment =
        new ActivityEnvironment(
            new CortexHome(temp, temp.resolve("data")), variables, Clock.systemUTC());
    return new ActivityInput(
        step.id(),
        Json.tree(with),
        manifest,
        timeout,
        environment,
        scope,
        McpActivityTest.NO_EXPRESSIONS);
  }
}
