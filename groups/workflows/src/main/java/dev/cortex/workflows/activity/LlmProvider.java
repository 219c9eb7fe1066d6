package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model API an {@code llm} step can call: where it is, how it is authorized, and how a prompt and
 * an answer look on its wire. The base URL and the key come from the environment only, never from a
 * manifest.
 */
enum LlmProvider {
  ANTHROPIC(
      "anthropic",
      "ANTHROPIC_API_KEY",
      "CORTEX_ANTHROPIC_BASE_URL",
      "https://api.anthropic.com",
      "/v1/messages") {
    @Override
    void authorize(HttpRequest.Builder request, String key) {
      request.header("x-api-key", key).header("anthropic-version", ANTHROPIC_VERSION);
    }

    @Override
    ObjectNode body(Prompt prompt) {
      ObjectNode body = Json.mapper().createObjectNode();
      body.put("model", prompt.model());
      body.put("max_tokens", prompt.maxTokens());
      prompt.systemText().ifPresent(s -> body.put("system", s));
      body.putArray("messages").add(message("user", prompt.prompt()));
      if (prompt.temperature() != null) {
        body.put("temperature", prompt.temperature());
      }
      return body;
    }

    @Override
    Answer answer(JsonNode body, String requestedModel) {
      StringBuilder text = new StringBuilder();
      for (JsonNode block : body.path("content")) {
        if (block.path("type").asString("text").equals("text") && block.path("text").isString()) {
          text.append(block.path("text").asString());
        }
      }
      JsonNode usage = body.path("usage");
      return new Answer(
          text.toString(),
          body.path("model").isString() ? body.path("model").asString() : requestedModel,
          body.path("stop_reason").isString() ? body.path("stop_reason").asString() : null,
          usage.path("input_tokens").asLong(0),
          usage.path("output_tokens").asLong(0),
          body.path("content").isArray());
    }
  },

  OPENAI(
      "openai",
      "OPENAI_API_KEY",
      "CORTEX_OPENAI_BASE_URL",
      "https://api.openai.com",
      "/v1/chat/completions") {
    @Override
    void authorize(HttpRequest.Builder request, String key) {
      request.header("Authorization", "Bearer " + key);
    }

    @Override
    ObjectNode body(Prompt prompt) {
      ObjectNode body = Json.mapper().createObjectNode();
      body.put("model", prompt.model());
      body.put("max_tokens", prompt.maxTokens());
      ArrayNode messages = body.putArray("messages");
      prompt.systemText().ifPresent(s -> messages.add(message("system", s)));
      messages.add(message("user", prompt.prompt()));
      if (prompt.temperature() != null) {
        body.put("temperature", prompt.temperature());
      }
      return body;
    }

    @Override
    Answer answer(JsonNode body, String requestedModel) {
      JsonNode choice = body.path("choices").path(0);
      JsonNode content = choice.path("message").path("content");
      JsonNode usage = body.path("usage");
      return new Answer(
          content.isString() ? content.asString() : "",
          body.path("model").isString() ? body.path("model").asString() : requestedModel,
          choice.path("finish_reason").isString() ? choice.path("finish_reason").asString() : null,
          usage.path("prompt_tokens").asLong(0),
          usage.path("completion_tokens").asLong(0),
          choice.isObject());
    }
  };

  static final String ANTHROPIC_VERSION = "2023-06-01";

  /** Appended to the system prompt when a step wants JSON back. */
  static final String JSON_INSTRUCTION =
      "Answer with a single JSON value and nothing else: no prose, no code fence.";

  private final String wireName;
  private final String keyVariable;
  private final String baseUrlVariable;
  private final String defaultBaseUrl;
  private final String path;

  LlmProvider(
      String wireName,
      String keyVariable,
      String baseUrlVariable,
      String defaultBaseUrl,
      String path) {
    this.wireName = wireName;
    this.keyVariable = keyVariable;
    this.baseUrlVariable = baseUrlVariable;
    this.defaultBaseUrl = defaultBaseUrl;
    this.path = path;
  }

  /** Adds the provider's authorization (and version) headers. */
  abstract void authorize(HttpRequest.Builder request, String key);

  /** The request body for {@code prompt}. */
  abstract ObjectNode body(Prompt prompt);

  /** The answer in a successful response body. */
  abstract Answer answer(JsonNode body, String requestedModel);

  String wireName() {
    return wireName;
  }

  /** The environment variable holding the API key (also its name in the secrets file). */
  String keyVariable() {
    return keyVariable;
  }

  /** The endpoint: the base URL from {@code CORTEX_<PROVIDER>_BASE_URL} or the public API. */
  URI endpoint(ActivityEnvironment environment) throws ActivityFailure {
    String base = environment.variable(baseUrlVariable).orElse(defaultBaseUrl).strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    try {
      URI uri = new URI(base + path);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new ActivityFailure(
        "llm", baseUrlVariable + " is not an http or https URL: '" + base + "'", null, false);
  }

  static Optional<LlmProvider> fromWireName(String name) {
    for (LlmProvider provider : values()) {
      if (provider.wireName.equals(name)) {
        return Optional.of(provider);
      }
    }
    return Optional.empty();
  }

  private static ObjectNode message(String role, String content) {
    ObjectNode message = Json.mapper().createObjectNode();
    message.put("role", role);
    message.put("content", content);
    return message;
  }

  /** The resolved {@code with} of an {@code llm} step. */
  record Prompt(
      LlmProvider provider,
      String model,
      String prompt,
      String system,
      int maxTokens,
      BigDecimal temperature,
      boolean json) {
    static final int DEFAULT_MAX_TOKENS = 1024;

    Prompt {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(prompt, "prompt");
    }

    /** The system prompt sent: the step's, plus the JSON instruction when it wants JSON. */
    Optional<String> systemText() {
      if (!json) {
        return Optional.ofNullable(system);
      }
      return Optional.of(system == null ? JSON_INSTRUCTION : system + "\n\n" + JSON_INSTRUCTION);
    }
  }

  /**
   * What came back: the text, the model that answered, why it stopped and the token counts; {@code
   * wellFormed} is false when the body lacked the answer's place altogether.
   */
  record Answer(
      String text,
      String model,
      String stopReason,
      long inputTokens,
      long outputTokens,
      boolean wellFormed) {}
}
