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

  /** The model a session gets when it names none; null leaves the choice to the backend. */
  default String defaultModel() {
    return null;
  }

  /**
   * Who serves {@code model} on this backend, as {@code CORTEX_PROVIDER} says it ({@code
   * anthropic}, a provider of {@code cortex.toml}); null when the backend does not say.
   */
  default String provider(String model) {
    return null;
  }

  /**
   * Why a session of {@code model} thinking at {@code thinking} cannot run on this backend (an
   * unknown model, a missing API key, ...), as a sentence for the person; null when it can. Asked
   * when the session is created, so that the person hears it then, not at the first turn.
   *
   * @param model null for the backend's own default
   * @param thinking {@code off}, {@code low}, {@code medium}, {@code high}, or null
   */
  default String refusal(String model, String thinking) {
    return null;
  }

  /** Receives a turn's events. */
  @FunctionalInterface
  interface TurnEvents {
    void event(BackendEvent event);
  }
}
