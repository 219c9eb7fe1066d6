package dev.cortex.workflows.activity;

import dev.cortex.models.ChatMessage;
import dev.cortex.models.ChatRequest;
import dev.cortex.models.Thinking;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The resolved {@code with} of an {@code llm} step: which provider, which model, the prompt and how
 * the answer may look.
 */
record LlmPrompt(
    String provider,
    String model,
    String prompt,
    String system,
    int maxTokens,
    BigDecimal temperature,
    boolean json) {
  static final int DEFAULT_MAX_TOKENS = 1024;

  /** Appended to the system prompt when a step wants JSON back. */
  static final String JSON_INSTRUCTION =
      "Answer with a single JSON value and nothing else: no prose, no code fence.";

  LlmPrompt {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(prompt, "prompt");
  }

  /** The prompt of {@code with}, which passed the kind's input schema. */
  static LlmPrompt of(JsonNode with) throws ActivityFailure {
    String provider = with.hasNonNull("provider") ? with.get("provider").asString() : "anthropic";
    if (!provider.equals("anthropic") && !provider.equals("openai")) {
      throw new ActivityFailure(
          "invalid_input",
          "provider must be anthropic or openai, got '" + provider + "'",
          null,
          false);
    }
    return new LlmPrompt(
        provider,
        with.path("model").asString(),
        with.path("prompt").asString(),
        with.hasNonNull("system") ? with.get("system").asString() : null,
        with.hasNonNull("max_tokens") ? with.get("max_tokens").asInt() : DEFAULT_MAX_TOKENS,
        with.hasNonNull("temperature") ? with.get("temperature").decimalValue() : null,
        with.path("json").asBoolean(false));
  }

  /** The system prompt sent: the step's, plus the JSON instruction when it wants JSON. */
  Optional<String> systemText() {
    if (!json) {
      return Optional.ofNullable(system);
    }
    return Optional.of(system == null ? JSON_INSTRUCTION : system + "\n\n" + JSON_INSTRUCTION);
  }

  /** The request of one user message, without tools or thinking. */
  ChatRequest request() {
    return new ChatRequest(
        model,
        systemText().orElse(null),
        List.of(ChatMessage.user(prompt)),
        List.of(),
        maxTokens,
        temperature == null ? null : temperature.doubleValue(),
        Thinking.OFF);
  }
}
