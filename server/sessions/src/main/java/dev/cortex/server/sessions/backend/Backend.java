package dev.cortex.server.sessions.backend;

/**
 * What runs a session's turns: the Claude Code CLI, a program speaking the command protocol, and
 * later Cortex's own loop on a model API. A turn goes in; normalised events come out as the backend
 * produces them; a running turn can take more input (where the backend supports it) and can be
 * stopped at any time.
 */
public interface Backend {
  /** The backend's name, as sessions record it: {@code claude}, {@code command}. */
  String name();

  /**
   * Starts a turn. Events go to {@code events} on a thread of the backend's, in order, ending with
   * exactly one {@link BackendEvent.End}, also when the backend crashes or is stopped.
   *
   * @throws BackendException when the turn cannot start at all (the program is missing, say)
   */
  RunningTurn start(TurnRequest request, TurnEvents events) throws BackendException;

  /**
   * Why no session of this backend can run on this server, in a sentence that says what to do
   * (checked when a session is created); null when sessions can run.
   */
  default String refusal() {
    return null;
  }

  /** Receives a turn's events. */
  @FunctionalInterface
  interface TurnEvents {
    void event(BackendEvent event);
  }
}
