package dev.cortex.mcp;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tool call may use from its surroundings: the Cortex home, the clock, a sink for progress
 * notifications, and a way to ask the human through the client when the client offers one. Injected
 * so that tests control time and location.
 */
public record ToolContext(
    CortexHome home, Clock clock, ProgressSink progress, Optional<Elicitor> elicitor) {
  public ToolContext {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(elicitor, "elicitor");
  }

  /** A context with no way to ask the human. */
  public ToolContext(CortexHome home, Clock clock, ProgressSink progress) {
    this(home, clock, progress, Optional.empty());
  }

  /** Receives progress of long work; a no-op when the client sent no progress token. */
  @FunctionalInterface
  public interface ProgressSink {
    void report(double progress, Double total, String message);

    ProgressSink NONE = (progress, total, message) -> {};
  }
}
