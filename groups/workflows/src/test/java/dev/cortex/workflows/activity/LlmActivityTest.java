package dev.cortex.workflows.activity;

import static dev.cortex.testing.FakeModelApi.failure;
import static dev.cortex.testing.FakeModelApi.reply;
import static dev.cortex.testing.FakeModelApi.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.testing.FakeModelApi;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LlmActivityTest {
  @TempDir Path temp;

  private final LlmActivity activity = new LlmActivity();
  private final RunScope scope = new RunScope();
  private final FakeModelApi api = FakeModelApi.start();
  private Map<String, String> variables;

  @BeforeEach
  void setUp() {
    variables = new HashMap<>();
    variables.put("CORTEX_ANTHROPIC_BASE_URL", api.url());
    variables.put("CORTEX_OPENAI_BASE_URL", api.url() + "/");
    variables.put("ANTHROPIC_API_KEY", "sk-ant-test");
    variables.put("OPENAI_API_KEY", "sk-openai-test");
  }

  @AfterEach
  void tearDown() {
    api.close();
    scope.close();
  }

  private FakeModelApi.Request received() {
    return api.lastRequest();
  }

  @Test
  void run_anthropic_sendsAMessagesRequestAndReturnsTheAnswer() throws Exception {
    api.answers(
        reply().text("Hello").text(" there").model("claude-sonnet-4-5-20250929").usage(1234, 256));

    ActivityResult result =
        activity.run(
            input(
                Map.of("model", "claude-sonnet-4-5", "prompt", "Say hello", "system", "Be brief")));

    assertThat(received().path()).isEqualTo("/v1/messages");
    assertThat(received().header("x-api-key")).isEqualTo("sk-ant-test");
    assertThat(received().header("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(received().header("Authorization")).isNull();
    assertThat(received().body().path("model").asString()).isEqualTo("claude-sonnet-4-5");
    assertThat(received().body().path("max_tokens").asInt()).isEqualTo(1024);
    assertThat(received().body().path("system").asString()).isEqualTo("Be brief");
    assertThat(received().body().has("temperature")).isFalse();
    assertThat(received().body().has("stream")).isFalse();
    assertThat(received().body().path("messages"))
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
    api.answers(text("Hi!").model("gpt-4o-2024-08-06").usage(1000, 100));

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

    assertThat(received().path()).isEqualTo("/v1/chat/completions");
    assertThat(received().header("Authorization")).isEqualTo("Bearer sk-openai-test");
    assertThat(received().header("x-api-key")).isNull();
    assertThat(received().body().path("model").asString()).isEqualTo("gpt-4o");
    assertThat(received().body().path("max_tokens").asInt()).isEqualTo(200);
    assertThat(received().body().path("temperature").asDouble()).isEqualTo(0.5);
    assertThat(received().body().path("messages"))
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
    api.answers(text("ok").model("acme-7"));

    ActivityResult result = activity.run(input(Map.of("model", "acme-7", "prompt", "hi")));

    assertThat(result.cost().usd()).isNull();
    assertThat(result.cost().priced()).isFalse();
    assertThat(result.summary()).isEqualTo("acme-7: 10 in / 5 out tokens, cost unknown");
  }

  @Test
  void run_json_asksForJsonAndParsesAFencedAnswer() throws Exception {
    api.answers(text("```json\n{\"items\": [1, 2]}\n```").model("claude-haiku-4-5"));

    ActivityResult result =
        activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "list", "json", true)));

    assertThat(received().body().path("system").asString()).contains("JSON");
    assertThat(result.output().path("json")).isEqualTo(Json.mapper().readTree("{\"items\":[1,2]}"));
    assertThat(result.output().path("text").asString()).startsWith("```json");
  }

  @Test
  void run_jsonWithUnparsableAnswer_failsWithInvalidOutput() {
    api.answers(text("Sure! Here it is: {items: [1, 2]").model("claude-haiku-4-5"));

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
    api.answers(failure(429).type("rate_limit_error").message("slow down"));

    assertThatThrownBy(() -> activity.run(input(Map.of("model", "claude-opus-4-1", "prompt", "x"))))
        .isInstanceOfSatisfying(
            ActivityFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo("llm");
              assertThat(f.retryable()).isTrue();
              assertThat(f.getMessage())
                  .isEqualTo("the anthropic API answered HTTP 429: slow down");
              assertThat(f.output().path("status").asInt()).isEqualTo(429);
              assertThat(f.output().path("body").path("error").path("message").asString())
                  .isEqualTo("slow down");
            });
  }

  @Test
  void run_badRequest_failsNotRetryable() {
    api.answers(failure(400).type("invalid_request").message("max_tokens is too large"));

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
    api.answers(reply().hold().text("too late"));

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
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void run_ownerOnlySecretsFile_suppliesTheKey() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    variables.remove("OPENAI_API_KEY");
    writeSecrets("rw-------", "{\"OPENAI_API_KEY\": \"sk-from-file\"}");
    api.answers(text("ok").model("gpt-4o-mini"));

    activity.run(input(Map.of("provider", "openai", "model", "gpt-4o-mini", "prompt", "x")));

    assertThat(received().header("Authorization")).isEqualTo("Bearer sk-from-file");
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
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void run_environmentKey_winsOverTheSecretsFile() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    writeSecrets("rw-------", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");
    api.answers(text("ok").model("claude-haiku-4-5"));

    activity.run(input(Map.of("model", "claude-haiku-4-5", "prompt", "x")));

    assertThat(received().header("x-api-key")).isEqualTo("sk-ant-test");
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
