package dev.cortex.server.sessions.backend;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One turn for a backend.
 *
 * @param sessionId the Cortex session
 * @param messages the user messages that start the turn, oldest first (at least one)
 * @param resume the backend's own conversation id to continue (from an earlier {@link
 *     BackendEvent.Started}), or null for the first turn
 * @param model the model to ask for, or null for the backend's default
 * @param workingDirectory where the backend runs
 * @param environment the complete environment of the backend's process (the session's table: {@code
 *     CORTEX_SESSION_ID}, {@code CORTEX_MCP_BUNDLES}, {@code WEBHOOK_PORT}, ...)
 * @param mcpConfig the MCP configuration file the backend loads (the session's composition)
 * @param strictMcpConfig whether only that file's servers may load ({@code none} composition)
 * @param program the program of a {@code command} backend (argv), or null
 */
public record TurnRequest(
    String sessionId,
    List<Message> messages,
    String resume,
    String model,
    Path workingDirectory,
    Map<String, String> environment,
    Path mcpConfig,
    boolean strictMcpConfig,
    List<String> program) {
  public TurnRequest {
    Objects.requireNonNull(sessionId, "sessionId");
    messages = List.copyOf(messages);
    if (messages.isEmpty()) {
      throw new IllegalArgumentException("a turn starts with at least one message");
    }
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(mcpConfig, "mcpConfig");
    program = program == null ? null : List.copyOf(program);
  }

  /**
   * A user message of the turn.
   *
   * @param id its id, by which the backend acknowledges it (its number in the session's inbox)
   */
  public record Message(String id, String text) {
    public Message {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
    }
  }

  /** The turn's messages as one prompt: their texts, separated by blank lines. */
  public String prompt() {
    return String.join("\n\n", messages.stream().map(Message::text).toList());
  }

  /** The ids of the turn's messages, in order. */
  public List<String> messageIds() {
    return messages.stream().map(Message::id).toList();
  }
}
