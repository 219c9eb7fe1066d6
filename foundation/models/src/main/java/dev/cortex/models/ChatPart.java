package dev.cortex.models;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/** One piece of a chat message: text, the model's thinking, a tool call, or a tool's output. */
public sealed interface ChatPart {

  /** Text, of the person or of the model. */
  record Text(String text) implements ChatPart {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The model's extended thinking, sent back unchanged on the next request where the provider needs
   * it (Anthropic checks the signature when a turn continues after a tool call).
   *
   * @param signature the provider's signature of the block, or null
   */
  record Thinking(String text, String signature) implements ChatPart {
    public Thinking {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The model calls a tool.
   *
   * @param id the provider's id of the call, which the output names
   * @param input the arguments, a JSON object
   */
  record ToolCall(String id, String name, JsonNode input) implements ChatPart {
    public ToolCall {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(input, "input");
    }
  }

  /** What a tool answered to the call {@code callId}. */
  record ToolOutput(String callId, String content, boolean error) implements ChatPart {
    public ToolOutput {
      Objects.requireNonNull(callId, "callId");
      Objects.requireNonNull(content, "content");
    }
  }
}
