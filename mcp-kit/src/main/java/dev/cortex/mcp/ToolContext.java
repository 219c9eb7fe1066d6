package dev.cortex.mcp;

import java.time.Clock;
import java.util.Objects;

/**
 * What a tool call may use from its surroundings: the Cortex home, the clock, and a sink for
 * progress notifications. Injected so that tests control time and location.
 */
public record ToolContext(CortexHome home, Clock clock, ProgressSink progress) {
  public ToolContext {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(progress, "progress");
  }

  /** Receives progress of long work; a no-op when the client sent no progress token. */
  @FunctionalInterface
  public interface ProgressSink {
    void report(double progress, Double total, String message);

    ProgressSink NONE = (progress, total, message) -> {};
  }
}
