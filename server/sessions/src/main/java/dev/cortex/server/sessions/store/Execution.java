package dev.cortex.server.sessions.store;

import java.time.Instant;
import java.util.Locale;

/**
 * A record of work an agent did: a session's turn today; subagents, workers, scheduled and
 * callback-triggered runs later. A terminal record ({@code completed}, {@code failed}, {@code
 * cancelled}, {@code stale}) is never rewritten.
 *
 * @param kind {@code turn}, later {@code subagent}, {@code worker}, {@code schedule}, {@code
 *     callback}
 * @param turns how many backend turns it took
 */
public record Execution(
    String id,
    String kind,
    Status status,
    String channel,
    String project,
    String sessionId,
    String backend,
    String model,
    Instant startedAt,
    Instant endedAt,
    double costUsd,
    int turns,
    String output,
    String error) {

  /** Where an execution stands. */
  public enum Status {
    RUNNING,
    COMPLETED,
    FAILED,
    CANCELLED,
    /** Its process died (the server was killed, say) before it recorded an end. */
    STALE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public boolean terminal() {
      return this != RUNNING;
    }

    public static Status of(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }
  }
}
