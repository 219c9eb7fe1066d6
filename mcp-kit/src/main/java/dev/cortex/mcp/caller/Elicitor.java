package dev.cortex.mcp.caller;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Asks the human behind the MCP client a question (MCP elicitation). A tool gets one only when the
 * client declared the {@code elicitation} capability at initialize; never from the command line.
 */
@FunctionalInterface
public interface Elicitor {
  /**
   * Sends {@code message} with a form described by {@code requestedSchema} (a flat JSON Schema
   * object of primitive properties). The future completes with the answer, or exceptionally when
   * the client fails the request. Cancelling the future withdraws the question: the client is sent
   * {@code notifications/cancelled} for it where the transport can name the request.
   */
  CompletableFuture<Answer> ask(String message, Map<String, Object> requestedSchema);

  /** What the human did with the form. */
  enum Action {
    /** Submitted the form; {@link Answer#content()} holds the values. */
    ACCEPT,
    /** Refused explicitly. */
    DECLINE,
    /** Dismissed the form without choosing. */
    CANCEL
  }

  /** The human's answer: the action and, when accepted, the submitted values. */
  record Answer(Action action, Map<String, Object> content) {
    public Answer {
      Objects.requireNonNull(action, "action");
      content =
          content == null
              ? Map.of()
              : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(content));
    }
  }
}
