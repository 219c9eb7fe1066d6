package dev.cortex.server.sessions.backend;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * One turn for a backend.
 *
 * @param sessionId the Cortex session
 * @param prompt the user message that starts the turn
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
    String prompt,
    String resume,
    String model,
    Path workingDirectory,
    Map<String, String> environment,
    Path mcpConfig,
    boolean strictMcpConfig,
    java.util.List<String> program) {
  public TurnRequest {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(mcpConfig, "mcpConfig");
    program = program == null ? null : java.util.List.copyOf(program);
  }
}
