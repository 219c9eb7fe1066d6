package dev.cortex.models;

import java.util.List;
import java.util.Objects;

/**
 * One request to a model: the conversation so far and what the model may do next.
 *
 * @param model the model's name as its provider knows it
 * @param system the system prompt, or null
 * @param messages the conversation, oldest first, starting with a user message
 * @param tools the tools it may call (none for a plain prompt)
 * @param maxTokens the most tokens it may generate
 * @param temperature sampling temperature, or null for the provider's default
 * @param thinking how hard it thinks ({@link Thinking#OFF} sends no thinking parameter)
 */
public record ChatRequest(
    String model,
    String system,
    List<ChatMessage> messages,
    List<ToolDefinition> tools,
    int maxTokens,
    Double temperature,
    Thinking thinking) {
  public ChatRequest {
    Objects.requireNonNull(model, "model");
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a request carries at least one message");
    }
    tools = List.copyOf(tools);
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be positive");
    }
    thinking = thinking == null ? Thinking.OFF : thinking;
  }

  /** The same request to another model (a fallback). */
  public ChatRequest withModel(String other) {
    return new ChatRequest(other, system, messages, tools, maxTokens, temperature, thinking);
  }

  /** The same request with another output limit. */
  public ChatRequest withMaxTokens(int limit) {
    return new ChatRequest(model, system, messages, tools, limit, temperature, thinking);
  }
}
