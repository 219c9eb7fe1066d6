package dev.cortex.server.sessions.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A conversation the agent server owns, bound to one channel and run turn by turn by a backend.
 *
 * @param name {@code cortex-<6 hex>}, for people
 * @param channel where the conversation happens: {@code cli:<name>}; {@code web:}, {@code slack:},
 *     {@code feishu:} for their platforms' front doors (reserved: the session API refuses them)
 * @param composition {@code direct} (the session's MCP server has its groups) or {@code none}
 * @param startedBy who started it: a person directly, an agent, a schedule, a callback, or a parent
 *     session's {@code agent} call (a subagent)
 * @param provider who serves the model ({@code anthropic}, a provider of {@code cortex.toml}), or
 *     null when the backend does not say
 * @param thinking how hard the model thinks: {@code off}, {@code low}, {@code medium}, {@code
 *     high}; null for the backend's default
 * @param toolAllowlist the tools its MCP server may register (null: all of its groups')
 * @param program for the {@code command} backend: the program that runs each turn
 * @param backendSessionId the backend's own conversation id, to resume it
 */
public record Session(
    String id,
    String name,
    String channel,
    String project,
    String backend,
    String model,
    String provider,
    String thinking,
    String mode,
    Composition composition,
    StartedBy startedBy,
    List<String> toolAllowlist,
    List<String> program,
    Path workingDirectory,
    State state,
    String backendSessionId,
    Instant createdAt,
    Instant updatedAt) {
  public Session {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(composition, "composition");
    Objects.requireNonNull(startedBy, "startedBy");
    toolAllowlist = toolAllowlist == null ? null : List.copyOf(toolAllowlist);
    program = program == null ? null : List.copyOf(program);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(state, "state");
  }

  /** Whether the session has an MCP server of its own. */
  public enum Composition {
    DIRECT,
    NONE;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Who started a session. */
  public enum StartedBy {
    PERSON,
    AGENT,
    SCHEDULE,
    CALLBACK,
    /** A parent session's {@code agent} call: a subagent, which may not delegate further. */
    SUBAGENT,
    /** A main session's {@code worker_spawn}: a persistent worker of its team. */
    WORKER;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Whether a turn is running. */
  public enum State {
    IDLE,
    RUNNING;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The channel's kind: the part before the colon, e.g. {@code cli}. */
  public String channelKind() {
    int colon = channel.indexOf(':');
    return colon < 0 ? channel : channel.substring(0, colon);
  }
}
