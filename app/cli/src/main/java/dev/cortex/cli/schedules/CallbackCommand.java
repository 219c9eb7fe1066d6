package dev.cortex.cli.schedules;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.protocol.session.Schedules;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex callback}: starts a turn from outside (a script, a job that ended), in a named
 * session or a fresh one, whose {@code cortex_context} shows {@code callbackSource}.
 */
@Command(
    name = "callback",
    mixinStandardHelpOptions = true,
    description = "Start a turn from outside: TEXT for a session (or a fresh one), from SOURCE.")
public final class CallbackCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--source",
      required = true,
      paramLabel = "SOURCE",
      description = "Where it comes from: workflow:run-42, job:backup.")
  String source;

  @Parameters(index = "0", paramLabel = "TEXT", description = "The message for the agent.")
  String text;

  @Option(
      names = "--session",
      paramLabel = "SESSION",
      description = "The session (id or name; default: a fresh one).")
  String session;

  @Option(
      names = "--project",
      paramLabel = "PROJECT",
      description = "The project of a fresh session.")
  String project;

  @Option(
      names = "--backend",
      paramLabel = "BACKEND",
      description = "The backend of a fresh session.")
  String backend;

  @Option(
      names = "--cwd",
      paramLabel = "DIR",
      description = "Where a fresh session runs (default: here).")
  Path cwd;

  @Option(
      names = "--program",
      paramLabel = "ARG",
      arity = "1..*",
      description =
          "For --backend command: the program of each turn; last, since it takes every argument after it.")
  List<String> program;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description = "The same KEY again is the same message.")
  String key;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  public CallbackCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return ScheduleCommand.attempt(
        io,
        () -> {
          Schedules.Called called =
              ScheduleCommand.post(
                  io,
                  Schedules.CALLBACK,
                  new Schedules.Callback(
                      source,
                      text,
                      session,
                      project,
                      backend,
                      session != null
                          ? null
                          : (cwd == null ? Path.of("") : cwd)
                              .toAbsolutePath()
                              .normalize()
                              .toString(),
                      program,
                      key),
                  Schedules.Called.class);
          if (json) {
            io.out().println(Json.writePretty(called));
          } else {
            io.out().println("Sent to " + called.sessionId() + " (" + called.status() + ").");
          }
          return CortexCommand.OK;
        });
  }
}
