package dev.cortex.workflows.consent;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** One way to ask the human: MCP elicitation, or a dialog on this machine. */
interface Channel {
  /** The channel's name in settings and messages: {@code elicitation}, {@code native}. */
  String name();

  /** Why this channel cannot ask here, or empty when it can. */
  Optional<String> unavailable();

  /**
   * Starts asking. The future completes with true (approved), false (declined) or null (the channel
   * gave up without an answer), or exceptionally when the channel broke. Cancelling it withdraws
   * the question.
   */
  CompletableFuture<Boolean> ask(Confirmation confirmation, Duration within);
}
