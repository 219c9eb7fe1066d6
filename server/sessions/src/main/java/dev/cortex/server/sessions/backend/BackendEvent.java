package dev.cortex.server.sessions.backend;

import java.util.Objects;

/** What a turn produces, the same for every backend. */
public sealed interface BackendEvent {

  /** The backend's own id of the conversation, to resume it in the next turn. */
  record Started(String backendSessionId) implements BackendEvent {}

  /** Text the agent says (a whole message, or a part of one as it streams). */
  record Text(String text) implements BackendEvent {
    public Text {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The agent calls a tool.
   *
   * @param input the tool's arguments as JSON text
   */
  record ToolUse(String id, String name, String input) implements BackendEvent {}

  /**
   * A tool's answer.
   *
   * @param content the answer as text (tool results are flat strings in the event stream)
   */
  record ToolResult(String toolUseId, String content, boolean error) implements BackendEvent {}

  /**
   * What the turn cost, from the backend's own usage figures.
   *
   * @param usd the backend's own figure, or null to price the tokens with the price table
   * @param mode {@code api} (paid per token) or {@code plan} (a subscription)
   */
  record Cost(
      String model,
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheWriteTokens,
      Double usd,
      String mode)
      implements BackendEvent {}

  /**
   * How the backend takes messages, said once, before it acknowledges any: with {@code acks} it
   * acknowledges each message it takes ({@link Acked}), so it may be given more while its turn
   * runs; without, it takes its turn's prompt and nothing more.
   */
  record Handshake(boolean acks) implements BackendEvent {}

  /** The backend took the message {@code id} (of its prompt, or injected): it is delivered. */
  record Acked(String id) implements BackendEvent {
    public Acked {
      Objects.requireNonNull(id, "id");
    }
  }

  /** Something the backend said that is not part of the conversation (a malformed line, say). */
  record Note(String text) implements BackendEvent {}

  /**
   * The end of the turn, exactly once.
   *
   * @param result the final text, when completed
   * @param error what went wrong, when failed
   */
  record End(Status status, String result, String error) implements BackendEvent {
    public End {
      Objects.requireNonNull(status, "status");
    }

    public static End completed(String result) {
      return new End(Status.COMPLETED, result, null);
    }

    public static End failed(String error) {
      return new End(Status.FAILED, null, error);
    }

    public static End stopped() {
      return new End(Status.STOPPED, null, "the turn was stopped");
    }
  }

  /** How a turn ended. */
  enum Status {
    COMPLETED,
    FAILED,
    STOPPED
  }
}
