package dev.cortex.models;

import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation. A user message holds text and the outputs of the tools the model
 * called in the message before; an assistant message holds text, thinking and tool calls.
 */
public record ChatMessage(Role role, List<ChatPart> parts) {
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a message has at least one part");
    }
  }

  /** Who speaks. */
  public enum Role {
    USER,
    ASSISTANT
  }

  public static ChatMessage user(String text) {
    return new ChatMessage(Role.USER, List.of(new ChatPart.Text(text)));
  }

  public static ChatMessage user(List<ChatPart> parts) {
    return new ChatMessage(Role.USER, parts);
  }

  public static ChatMessage assistant(List<ChatPart> parts) {
    return new ChatMessage(Role.ASSISTANT, parts);
  }
}
