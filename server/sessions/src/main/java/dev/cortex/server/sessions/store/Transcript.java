package dev.cortex.server.sessions.store;

import java.time.Instant;
import java.util.Locale;

/** What a transcript holds. */
public final class Transcript {
  private Transcript() {}

  /** The kinds of transcript entries. */
  public enum Kind {
    /** A message from the session's human (or a wake, later). */
    USER,
    /** Text the agent said. */
    ASSISTANT,
    /** The agent called a tool. */
    TOOL_USE,
    /** A tool's answer. */
    TOOL_RESULT,
    /** Something the server says about the session: a turn failed, was stopped, interrupted. */
    SYSTEM,
    /** Something the backend said outside the conversation (a malformed line). */
    NOTE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Kind of(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }
  }

  /**
   * One entry.
   *
   * @param seq its place in the session's transcript, from 1
   * @param executionId the turn it belongs to, if any
   * @param body its content as JSON text (e.g. {@code {"text": ...}}, {@code
   *     {"id","name","input"}})
   */
  public record Entry(long seq, String executionId, Kind kind, String body, Instant at) {}
}
