package dev.cortex.models;

import java.util.List;
import java.util.Objects;

/**
 * A model's whole answer to one request.
 *
 * @param parts text, thinking and tool calls, in the order the model produced them
 * @param stop why the model stopped
 * @param stopReason the provider's own word for it ({@code end_turn}, {@code tool_calls}, ...)
 * @param usage the tokens of this call
 * @param model the model that answered, as the provider named it
 */
public record Reply(List<ChatPart> parts, Stop stop, String stopReason, Usage usage, String model) {
  public Reply {
    parts = List.copyOf(parts);
    Objects.requireNonNull(stop, "stop");
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(model, "model");
  }

  /** Why a model stopped generating. */
  public enum Stop {
    /** It finished its turn. */
    END_TURN,
    /** It wants the outputs of the tools it called. */
    TOOL_USE,
    /** It ran out of output tokens. */
    MAX_TOKENS,
    /** Anything else the provider said (a stop sequence, a refusal, ...). */
    OTHER
  }

  /** The answer's text parts, joined. */
  public String text() {
    StringBuilder text = new StringBuilder();
    for (ChatPart part : parts) {
      if (part instanceof ChatPart.Text t) {
        text.append(t.text());
      }
    }
    return text.toString();
  }

  /** The tool calls of the answer, in order. */
  public List<ChatPart.ToolCall> toolCalls() {
    return parts.stream()
        .filter(ChatPart.ToolCall.class::isInstance)
        .map(ChatPart.ToolCall.class::cast)
        .toList();
  }
}
