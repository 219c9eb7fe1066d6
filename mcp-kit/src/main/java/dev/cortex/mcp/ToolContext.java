package dev.cortex.mcp;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tool call may use from its surroundings: the Cortex home, the clock, a sink for progress
 * notifications, a way to ask the human through the client when the client offers one, and word of
 * the client cancelling the call. Injected so that tests control time and location.
 */
public record ToolContext(
    CortexHome home,
    Clock clock,
    ProgressSink progress,
    Optional<Elicitor> elicitor,
    CancelSignal cancel) {
  public ToolContext {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(elicitor, "elicitor");
    cancel = cancel == null ? CancelSignal.NONE : cancel;
  }

  /** A context whose client cannot cancel the call. */
  public ToolContext(
      CortexHome home, Clock clock, ProgressSink progress, Optional<Elicitor> elicitor) {
    this(home, clock, progress, elicitor, CancelSignal.NONE);
  }

  /** A context with no way to ask the human. */
  public ToolContext(CortexHome home, Clock clock, ProgressSink progress) {
    this(home, clock, progress, Optional.empty());
  }

  /**
   * What the call hears when its client cancels it ({@code notifications/cancelled}): the answer is
   * dropped by the transport either way; a tool may also stop its work.
   */
  @FunctionalInterface
  public interface CancelSignal {
    /** Runs {@code action} once when the client cancels the call (at once if it has). */
    void onCancel(Runnable action);

    CancelSignal NONE = action -> {};
  }

  /** Receives progress of long work; a no-op when the client sent no progress token. */
  @FunctionalInterface
  public interface ProgressSink {
    void report(double progress, Double total, String message);

    ProgressSink NONE = (progress, total, message) -> {};
  }
}
