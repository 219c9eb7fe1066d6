package dev.cortex.workflows.activity;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Json;
import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.models.ApiKeys;
import dev.cortex.models.HttpModelClient;
import dev.cortex.models.ModelCatalog;
import dev.cortex.models.ModelFailure;
import dev.cortex.models.ModelPrices;
import dev.cortex.models.ModelProvider;
import dev.cortex.models.Reply;
import dev.cortex.workflows.manifest.StepKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The {@code llm} kind: one prompt to a model through the Anthropic Messages API or an
 * OpenAI-compatible chat completions API, as the models layer speaks them ({@link HttpModelClient},
 * one answer without a stream). Where the request goes and with which key is decided by the
 * environment ({@code CORTEX_<PROVIDER>_BASE_URL}, {@code <PROVIDER>_API_KEY} or the secrets file),
 * never by the manifest.
 */
public final class LlmActivity implements Activity {
  private static final Pattern FENCE =
      Pattern.compile("```[A-Za-z0-9_-]*[ \\t]*\\r?\\n?(.*?)```", Pattern.DOTALL);

  /** How long an answer may take to come, for a step without a timeout. */
  static final Duration ANSWER_LIMIT = Duration.ofMinutes(10);

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

  private final Supplier<HttpModelClient> client;
  private final Supplier<ModelPrices> prices;

  /** The client of every default activity, built on first use so that listing tools stays cheap. */
  private static final class Shared {
    static final HttpModelClient CLIENT =
        new HttpModelClient(HttpModelClient.CONNECT_TIMEOUT, ANSWER_LIMIT);
  }

  public LlmActivity() {
    this(() -> Shared.CLIENT, ModelPrices::shipped);
  }

  /** Calls models through {@code client}; a step's timeout becomes its idle timeout. */
  public LlmActivity(HttpModelClient client) {
    this(client, ModelPrices.shipped());
  }

  LlmActivity(HttpModelClient client, ModelPrices prices) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(prices, "prices");
    this.client = () -> client;
    this.prices = () -> prices;
  }

  private LlmActivity(Supplier<HttpModelClient> client, Supplier<ModelPrices> prices) {
    this.client = client;
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
    if (ModelCatalog.baseUrlVariable(name).isEmpty()) {
      return List.of(); // the schema's enum reports it
    }
    List<String> problems = new ArrayList<>();
    try {
      key(provider(name, environment), environment);
    } catch (ActivityFailure e) {
      problems.add("step '" + step.id() + "': " + e.getMessage());
    }
    return problems;
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    LlmPrompt prompt = LlmPrompt.of(input.with());
    ModelProvider provider = provider(prompt.provider(), input.environment());
    String key = key(provider, input.environment());
    HttpModelClient calls =
        input.timeoutDuration().map(client.get()::withIdleTimeout).orElse(client.get());
    Reply reply;
    try {
      reply = calls.complete(provider, key, prompt.request(), Cancellation.NONE);
    } catch (ModelFailure failure) {
      throw failure(failure);
    }

    ObjectNode output = Json.mapper().createObjectNode();
    output.put("text", reply.text());
    output.put("model", reply.model());
    output.put("stop_reason", reply.stopReason());
    if (prompt.json()) {
      output.set("json", parseJson(reply.text(), output));
    }
    ModelPrices prices = this.prices.get();
    ModelPrices.Tokens tokens = ModelPrices.Tokens.of(reply.usage());
    BigDecimal usd =
        prices.usd(reply.model(), tokens).or(() -> prices.usd(prompt.model(), tokens)).orElse(null);
    long inputTokens = tokens.input() + tokens.cacheRead() + tokens.cacheWrite();
    Cost cost = new Cost(inputTokens, tokens.output(), usd, reply.model());
    return new ActivityResult(output, summary(prompt.model(), cost), cost);
  }

  /** The built-in provider {@code name}, at the base URL its variable gives, if it gives one. */
  static ModelProvider provider(String name, ActivityEnvironment environment)
      throws ActivityFailure {
    String variable = ModelCatalog.baseUrlVariable(name).orElseThrow();
    Map<String, String> moved =
        environment.variable(variable).map(url -> Map.of(variable, url)).orElse(Map.of());
    try {
      return ModelCatalog.builtIn().withBaseUrlsFrom(moved).provider(name);
    } catch (StartupException e) {
      throw new ActivityFailure("llm", e.getMessage(), null, false);
    }
  }

  /**
   * The provider's key.
   *
   * @throws ActivityFailure {@code missing_api_key} when neither place has it, {@code secrets} when
   *     the secrets file is open to others or unreadable; neither is retryable
   */
  static String key(ModelProvider provider, ActivityEnvironment environment)
      throws ActivityFailure {
    ApiKeys keys = new ApiKeys(environment.home(), environment.variables());
    try {
      return keys.require(provider);
    } catch (ModelFailure e) {
      boolean secrets = keys.state(provider) == ApiKeys.KeyState.SECRETS_UNREADABLE;
      throw new ActivityFailure(
          secrets ? "secrets" : "missing_api_key", e.getMessage(), null, false);
    }
  }

  /**
   * A failed call as a step failure: an HTTP answer is {@code llm} with the status and the body in
   * its output, no answer in time {@code timeout}, anything else {@code llm}; retryable as the
   * failure's kind is.
   */
  static ActivityFailure failure(ModelFailure failure) {
    if (failure.status() > 0) {
      ObjectNode output = Json.mapper().createObjectNode();
      output.put("status", failure.status());
      String answer = failure.answer() == null ? "" : failure.answer();
      JsonNode body = readJson(answer);
      output.set("body", body == null ? StringNode.valueOf(answer) : body);
      return new ActivityFailure("llm", failure.getMessage(), output, failure.retryable());
    }
    return new ActivityFailure(
        failure.kind() == ModelFailure.Kind.TIMEOUT ? "timeout" : "llm",
        failure.getMessage(),
        null,
        failure.retryable());
  }

  private static JsonNode readJson(String text) {
    try {
      JsonNode node = Json.mapper().readTree(text);
      return node == null || node.isMissingNode() ? null : node;
    } catch (JacksonException e) {
      return null;
    }
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
}
