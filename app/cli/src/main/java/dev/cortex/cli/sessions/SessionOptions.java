package dev.cortex.cli.sessions;

import dev.cortex.protocol.session.Sessions;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The options the session verbs share. */
final class SessionOptions {
  private SessionOptions() {}

  /** Options that describe a new session, shared by {@code sessions new} and {@code chat}. */
  static final class NewOptions {
    @Option(
        names = "--name",
        paramLabel = "NAME",
        description = "The session's name (default cortex-<6 hex>).")
    String name;

    @Option(names = "--project", paramLabel = "PROJECT", description = "The project it works for.")
    String project;

    @Option(
        names = "--backend",
        paramLabel = "BACKEND",
        description = "claude, api or command (default: [sessions] backend).")
    String backend;

    @Option(
        names = "--model",
        paramLabel = "MODEL",
        description = "The model to ask for (for api: a model of 'cortex models list').")
    String model;

    @Option(
        names = "--thinking",
        paramLabel = "LEVEL",
        description =
            "How hard the model thinks: off, low, medium or high (default: the backend's).")
    String thinking;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        description = "The session's mode (CORTEX_MODE; default 'default').")
    String mode;

    @Option(
        names = "--composition",
        paramLabel = "C",
        description = "direct (its MCP server: core, ext, interaction) or none.")
    String composition;

    @Option(
        names = "--cwd",
        paramLabel = "DIR",
        description = "Where its backend runs (default: your home folder).")
    Path cwd;

    @Option(
        names = "--program",
        paramLabel = "ARG",
        arity = "1..*",
        description = "For --backend command: the program and its arguments that run each turn.")
    List<String> program;

    @Option(
        names = "--allow",
        paramLabel = "TOOL",
        split = ",",
        description = "Only these tools on its MCP server (a comma list).")
    List<String> allow;

    /** The session these options describe, started by a person on its own cli: channel. */
    Sessions.Create request() {
      return new Sessions.Create(
          name,
          null,
          project,
          backend,
          model,
          thinking,
          mode,
          composition,
          "person",
          program,
          cwd == null ? null : cwd.toAbsolutePath().toString(),
          allow);
    }
  }

  /** How a followed turn shows that it still runs. */
  static final class FollowOptions {
    @Option(
        names = "--progress",
        paramLabel = "SECONDS",
        defaultValue = "15",
        description =
            "While a turn says nothing, a line on stderr every SECONDS saying it still runs"
                + " (0-600, default 15; 0: none).")
    int progressSeconds;
  }
}
