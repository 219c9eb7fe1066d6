package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.models.ModelPrices;
import dev.cortex.workflows.activity.LlmProvider.Answer;
import dev.cortex.workflows.activity.LlmProvider.Prompt;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The {@code llm} kind: one prompt to a model through the Anthropic Messages API or an
 * OpenAI-compatible chat completions API. Where the request goes and with which key is decided by
 * the environment ({@code CORTEX_<PROVIDER>_BASE_URL}, {@code <PROVIDER>_API_KEY} or the secrets
 * file), never by the manifest.
 */
public final class LlmActivity implements Activity {
  private static final Pattern FENCE =
      Pattern.compile("```[A-Za-z0-9_-]*[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);
  private static final int ERROR_LIMIT = 500;

  private static final Map<String, Object> INPUT_SCHEMA =
      Schema.object()
          .optional(
              "provider",
              Schema.enumOf("The API to call (default anthropic).", "anthropic", "openai"))
          .required("model", Schema.string("The model, e.g. claude-sonnet-4-5 or gpt-4o.", 1, -1))
          .required("prompt", Schema.string("The user message.", 1, -1))
          .optional("system", Schema.string("The system prompt."))
          .optional(
              "max_tokens",
              Schema.integer("The most tokens to generate (default 1024).", 1, 1_000_000))
          .optional("temperature", Schema.number("Sampling temperature.", 0, 2))
          .optional(
              "json",
              Schema.bool(
                  "Ask for JSON and parse the answer into the output's json (default" + " false)."))
          .build();

  private final java.util.function.Supplier<HttpClient> http;
  private final java.util.function.Supplier<ModelPrices> prices;

  /** The client of every default activity, built on first use so that listing tools stays cheap. */
  private static final class Shared {
    static final HttpClient CLIENT =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
  }

  public LlmActivity() {
    this(() -> Shared.CLIENT, ModelPrices::shipped);
  }

  /** Calls models through {@code http}, which must not follow redirects (a key could leak). */
  public LlmActivity(HttpClient http) {
    this(http, ModelPrices.shipped());
  }

  LlmActivity(HttpClient http, ModelPrices prices) {
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(prices, "prices");
    this.http = () -> http;
    this.prices = () -> prices;
  }

  private LlmActivity(
      java.util.function.Supplier<HttpClient> http,
      java.util.function.Supplier<ModelPrices> prices) {
    this.http = http;
    this.prices = prices;
  }

  @Override
  public StepKind kind() {
    return StepKind.LLM;
  }

  @Override
  public String description() {
    return "Sends one prompt to a model (Anthropic Messages or OpenAI chat completions) and"
        + " returns its answer, with tokens and cost.";
  }

  @Override
  public String outputDescription() {
    return "{text, model, stop_reason}; json as well when json is true. The step's cost"
        + " carries input and output tokens and US dollars from the price table (null for a"
        + " model not in it).";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return INPUT_SCHEMA;
  }

  /**
   * What a call would fail on before it reaches the model: no API key for the provider (the
   * environment, else the secrets file), or a base URL variable that is no http(s) URL.
   */
  @Override
  public List<String> preflight(
      dev.cortex.workflows.manifest.Step step,
      dev.cortex.workflows.manifest.Manifest manifest,
      ActivityEnvironment environment) {
    Object named = step.with().getOrDefault("provider", "anthropic");
    if (!(named instanceof String name) || !OutputText.isLiteral(name)) {
      return List.of();
    }
    Optional<LlmProvider> provider = LlmProvider.fromWireName(name);
    if (provider.isEmpty()) {
      return List.of(); // the schema's enum reports it
    }
    List<String> problems = new ArrayList<>();
    try {
      provider.get().endpoint(environment);
      ApiKeys.find(provider.get().keyVariable(), environment);
    } catch (ActivityFailure e) {
      problems.add("step '" + step.id() + "': " + e.getMessage());
    }
    return problems;
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    Prompt prompt = prompt(input.with());
    LlmProvider provider = prompt.provider();
    String key = ApiKeys.find(provider.keyVariable(), input.environment());
    HttpRequest.Builder request =
        HttpRequest.newBuilder(provider.endpoint(input.environment()))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(provider.body(prompt))));
    provider.authorize(request, key);
    input.timeoutDuration().ifPresent(request::timeout);
    HttpResponse<String> response = send(provider, request.build(), input.timeout());
    Answer answer = answer(provider, response, prompt.model());

    ObjectNode output = Json.mapper().createObjectNode();
    output.put("text", answer.text());
    output.put("model", answer.model());
    output.put("stop_reason", answer.stopReason());
    if (prompt.json()) {
      output.set("json", parseJson(answer.text(), output));
    }
    ModelPrices prices = this.prices.get();
    BigDecimal usd =
        prices
            .usd(answer.model(), answer.inputTokens(), answer.outputTokens())
            .or(() -> prices.usd(prompt.model(), answer.inputTokens(), answer.outputTokens()))
            .orElse(null);
    Cost cost = new Cost(answer.inputTokens(), answer.outputTokens(), usd, answer.model());
    return new ActivityResult(output, summary(prompt.model(), cost), cost);
  }

  static Prompt prompt(JsonNode with) throws ActivityFailure {
    String providerName =
        with.hasNonNull("provider") ? with.get("provider").asString() : "anthropic";
    LlmProvider provider =
        LlmProvider.fromWireName(providerName)
            .orElseThrow(
                () ->
                    new ActivityFailure(
                        "invalid_input",
                        "provider must be anthropic or openai, got '" + providerName + "'",
                        null,
                        false));
    return new Prompt(
        provider,
        with.path("model").asString(),
        with.path("prompt").asString(),
        with.hasNonNull("system") ? with.get("system").asString() : null,
        with.hasNonNull("max_tokens") ? with.get("max_tokens").asInt() : Prompt.DEFAULT_MAX_TOKENS,
        with.hasNonNull("temperature") ? with.get("temperature").decimalValue() : null,
        with.path("json").asBoolean(false));
  }

  private HttpResponse<String> send(LlmProvider provider, HttpRequest request, Duration timeout)
      throws ActivityFailure, InterruptedException {
    CompletableFuture<HttpResponse<String>> future =
        http.get().sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw new ActivityFailure(
            "timeout",
            "the " + provider.wireName() + " API did not answer within " + timeout,
            null,
            true);
      }
      String detail =
          cause instanceof IOException && cause.getMessage() != null
              ? cause.getMessage()
              : cause.getClass().getSimpleName();
      throw new ActivityFailure(
          "llm", "cannot reach the " + provider.wireName() + " API: " + detail, null, true);
    }
  }

  private static Answer answer(LlmProvider provider, HttpResponse<String> response, String model)
      throws ActivityFailure {
    int status = response.statusCode();
    JsonNode body = readJson(response.body());
    if (status < 200 || status > 299) {
      boolean retryable = status == 408 || status == 429 || status >= 500;
      ObjectNode output = Json.mapper().createObjectNode();
      output.put("status", status);
      output.set("body", body == null ? StringNode.valueOf(response.body()) : body);
      throw new ActivityFailure(
          "llm",
          "the "
              + provider.wireName()
              + " API answered HTTP "
              + status
              + ": "
              + errorMessage(body, response.body()),
          output,
          retryable);
    }
    Answer answer = body == null ? null : provider.answer(body, model);
    if (answer == null || !answer.wellFormed()) {
      throw new ActivityFailure(
          "llm",
          "the " + provider.wireName() + " API answered HTTP " + status + " without an answer",
          null,
          true);
    }
    return answer;
  }

  private static JsonNode readJson(String text) {
    try {
      JsonNode node = Json.mapper().readTree(text);
      return node == null || node.isMissingNode() ? null : node;
    } catch (JacksonException e) {
      return null;
    }
  }

  private static String errorMessage(JsonNode body, String raw) {
    if (body != null) {
      JsonNode error = body.path("error");
      if (error.path("message").isString()) {
        return truncate(error.path("message").asString());
      }
      if (error.isString()) {
        return truncate(error.asString());
      }
      if (body.path("message").isString()) {
        return truncate(body.path("message").asString());
      }
    }
    return raw == null || raw.isBlank() ? "no message" : truncate(raw.strip());
  }

  /** The JSON value of a model's answer, unwrapped from a Markdown code fence if it has one. */
  static JsonNode parseJson(String text, JsonNode output) throws ActivityFailure {
    String candidate = text.strip();
    Matcher fence = FENCE.matcher(candidate);
    if (fence.find()) {
      candidate = fence.group(1).strip();
    }
    JsonNode parsed = candidate.isEmpty() ? null : readJson(candidate);
    if (parsed == null) {
      throw new ActivityFailure(
          "invalid_output", "the model's answer is not valid JSON", output, true);
    }
    return parsed;
  }

  static String summary(String model, Cost cost) {
    String tokens =
        String.format(
            Locale.ROOT,
            "%s: %,d in / %,d out tokens",
            model,
            cost.inputTokens(),
            cost.outputTokens());
    if (!cost.priced()) {
      return tokens + ", cost unknown";
    }
    BigDecimal usd = cost.usd();
    int scale = usd.compareTo(BigDecimal.ONE) >= 0 ? 2 : 4;
    return tokens + ", $" + usd.setScale(scale, RoundingMode.HALF_UP).toPlainString();
  }

  private static String truncate(String message) {
    return message.length() <= ERROR_LIMIT ? message : message.substring(0, ERROR_LIMIT) + "…";
  }
}
