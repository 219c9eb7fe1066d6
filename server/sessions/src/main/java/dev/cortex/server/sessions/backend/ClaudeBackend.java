package dev.cortex.server.sessions.backend;

import dev.cortex.base.CortexHome;
import dev.cortex.process.Executables;
import dev.cortex.process.ProcessSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code claude} backend: each turn is one Claude Code process in print mode, reading
 * stream-json user messages on standard input and printing stream-json events (see {@code
 * docs/claude-backend.md}). The prompt is the first user message; an injected message is another,
 * which Claude Code takes into the running turn. Claude Code echoes each user message as it takes
 * it in: the echo is the message's acknowledgement. The turn ends at Claude Code's {@code result}
 * (standard input is then closed, so that the process exits), or when the process exits without
 * one. A {@code result} that comes while a message written to Claude Code is not echoed is held
 * back: Claude Code may still take the message, as a query of its own; after {@link #ECHO_GRACE}
 * its input is closed, and its exit ends the turn with that result.
 *
 * <p>The program is {@code CORTEX_CLAUDE_BIN} of the turn's environment, else {@code claude} on its
 * {@code PATH}. It runs with the turn's environment plus {@code CLAUDE_CONFIG_DIR} (Cortex's own
 * Claude Code configuration, {@code $CORTEX_HOME/data/claude}, owner-only) and {@code
 * MCP_TOOL_TIMEOUT} (30 minutes 30 seconds).
 */
public final class ClaudeBackend implements Backend {
  public static final String NAME = "claude";

  private static final Logger log = LoggerFactory.getLogger(ClaudeBackend.class);

  /**
   * How long Claude Code may still echo a message written to it after a {@code result} that came
   * while the message was not echoed: then its input is closed, so that it exits, and the turn ends
   * with that result (the message goes back to the queue).
   */
  static final Duration ECHO_GRACE = Duration.ofSeconds(5);

  private final Path configDir;
  private final Duration echoGrace;
  private final Map<String, String> serverEnvironment;
  private final Function<List<String>, Set<String>> servedTools;
  private final BooleanSupplier runsAsRoot;

  /**
   * A backend whose Claude Code configuration lives in {@code home}.
   *
   * @param serverEnvironment the agent server's environment, whose {@code CORTEX_CLAUDE_SANDBOX}
   *     says whether this host is a sandbox
   * @param servedTools the names of the tools an MCP server composed of the given groups serves
   */
  public ClaudeBackend(
      CortexHome home,
      Map<String, String> serverEnvironment,
      Function<List<String>, Set<String>> servedTools) {
    this(home, ECHO_GRACE, serverEnvironment, servedTools, ClaudeBackend::root);
  }

  ClaudeBackend(CortexHome home, Duration echoGrace) {
    this(home, echoGrace, Map.of(), groups -> Set.of(), () -> false);
  }

  ClaudeBackend(
      CortexHome home,
      Duration echoGrace,
      Map<String, String> serverEnvironment,
      Function<List<String>, Set<String>> servedTools,
      BooleanSupplier runsAsRoot) {
    this.configDir = Objects.requireNonNull(home, "home").root().resolve("data").resolve("claude");
    this.echoGrace = Objects.requireNonNull(echoGrace, "echoGrace");
    this.serverEnvironment = Map.copyOf(serverEnvironment);
    this.servedTools = Objects.requireNonNull(servedTools, "servedTools");
    this.runsAsRoot = Objects.requireNonNull(runsAsRoot, "runsAsRoot");
  }

  /**
   * Claude Code refuses {@code --dangerously-skip-permissions}, which every turn needs, to a
   * process running as root, unless it is told that the host is a sandbox: a server running as root
   * is refused sessions unless {@code CORTEX_CLAUDE_SANDBOX=1} says so.
   */
  @Override
  public String refusal(String model, String thinking) {
    return rootRefusal(serverEnvironment);
  }

  private String rootRefusal(Map<String, String> environment) {
    if (!runsAsRoot.getAsBoolean() || ClaudeSpawn.sandboxed(environment)) {
      return null;
    }
    return "The agent server runs as root, and Claude Code refuses to bypass its permission prompts"
        + " (which every turn of a session needs) as root. Run the server as another user, or, on"
        + " a host that is a sandbox of its own (a container or VM), start it with"
        + " CORTEX_CLAUDE_SANDBOX=1.";
  }

  /** Whether this process runs as root (uid 0). */
  static boolean root() {
    try {
      Object uid = java.nio.file.Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return Integer.valueOf(0).equals(uid);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }

  @Override
  public String provider(String model) {
    return "anthropic";
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RunningTurn start(TurnRequest request, TurnEvents events) throws BackendException {
    String refusal = rootRefusal(request.environment());
    if (refusal != null) {
      throw new BackendException(refusal);
    }
    String executable = executable(request.environment(), request.workingDirectory());
    ensureConfigDir();
    ClaudeSpawn spawn = ClaudeSpawn.of(request, executable, configDir, served(request));
    ClaudeStream stream = new ClaudeStream(request.model(), request.environment());
    ProcessTurn running;
    try {
      running =
          ProcessTurn.start(
              ProcessSpec.builder(spawn.command(), spawn.environment())
                  .directory(request.workingDirectory())
                  .stdinOpen()
                  .capture(0, CommandBackend.STDERR_BYTES)
                  .readOutputToEnd(ProcessTurn.OUTPUT_DRAIN)
                  .build(),
              events,
              stream::injectLine,
              (line, turn) -> forward(stream.accept(line), turn, echoGrace),
              CommandBackend::tail);
    } catch (IOException e) {
      throw new BackendException("Claude Code could not be started: " + e.getMessage());
    }
    running.write(stream.promptLine(request));
    return running;
  }

  /**
   * The tools the turn's MCP server serves: those of its groups ({@code CORTEX_MCP_BUNDLES}), less
   * those its allowlist ({@code CORTEX_MCP_TOOL_ALLOWLIST}) leaves out; except that {@code agent}
   * stays when the groups serve it, so that Claude Code's own Agent and Task are taken away all the
   * same. An allowlist that leaves {@code agent} out is a subagent's (or a role's), which must not
   * delegate by Claude Code's own tool either.
   */
  private Set<String> served(TurnRequest request) {
    Map<String, String> env = request.environment();
    Set<String> tools;
    try {
      tools =
          new java.util.LinkedHashSet<>(
              servedTools.apply(ClaudeSpawn.bundles(env.get("CORTEX_MCP_BUNDLES"))));
    } catch (RuntimeException e) {
      // The session's MCP server refuses such a composition on its own; nothing is taken away.
      log.warn("cannot tell the tools of the session's composition", e);
      return Set.of();
    }
    String allowlist = env.get("CORTEX_MCP_TOOL_ALLOWLIST");
    if (allowlist != null && !allowlist.isBlank()) {
      Set<String> allowed = new java.util.HashSet<>();
      for (String name : ClaudeSpawn.bundles(allowlist)) {
        allowed.add(name.substring(name.lastIndexOf("__") < 0 ? 0 : name.lastIndexOf("__") + 2));
      }
      boolean delegation = tools.contains("agent");
      tools.retainAll(allowed);
      if (delegation) {
        tools.add("agent");
      }
    }
    return tools;
  }

  private static void forward(ClaudeStream.Read read, ProcessTurn turn, Duration echoGrace) {
    read.events().forEach(turn::event);
    if (read.end() != null) {
      turn.end(read.end());
    } else if (read.held() != null) {
      turn.endAtExit(read.held(), echoGrace);
    }
  }

  /**
   * The {@code claude} program: {@code CORTEX_CLAUDE_BIN} (a path, or a name looked up on {@code
   * PATH}), else {@code claude} on {@code PATH}, found by {@link Executables} in the turn's own
   * environment.
   *
   * @throws BackendException naming how to install Claude Code or point Cortex at it
   */
  static String executable(Map<String, String> environment, Path workingDirectory)
      throws BackendException {
    String configured = environment.get("CORTEX_CLAUDE_BIN");
    if (configured != null && !configured.isBlank()) {
      Optional<Path> found = Executables.find(configured.strip(), environment, workingDirectory);
      if (found.isEmpty()) {
        throw new BackendException(
            "CORTEX_CLAUDE_BIN is set to '"
                + configured.strip()
                + "', which is not an executable file: set it to the path of the claude program,"
                + " or unset it to use claude from the PATH.");
      }
      return found.get().toString();
    }
    Optional<Path> found = Executables.find("claude", environment, workingDirectory);
    if (found.isEmpty()) {
      throw new BackendException(
          "Claude Code is not installed: there is no claude program on the PATH. Install it"
              + " (npm install -g @anthropic-ai/claude-code) or set CORTEX_CLAUDE_BIN to the path"
              + " of the claude program.");
    }
    return found.get().toString();
  }

  private void ensureConfigDir() throws BackendException {
    try {
      CortexHome.ensureDirectory(configDir);
    } catch (UncheckedIOException e) {
      log.warn("cannot create Claude Code's configuration directory {}", configDir, e);
      throw new BackendException(
          "Cortex could not create the directory for Claude Code's configuration (data/claude in"
              + " the Cortex home); see the server's log.");
    }
  }
}
