package dev.cortex.cli.agents;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.protocol.webhook.Team;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex workers list|send|stop}: the workers of team mode's main sessions, through the
 * agent server's session API ({@link Team#API_PREFIX}). ({@code cortex worker}, singular, is the
 * Temporal worker.)
 */
@Command(
    name = "workers",
    mixinStandardHelpOptions = true,
    description = "Workers of team sessions: list, send, stop.")
public final class WorkersCommand implements Callable<Integer> {
  private final Io io;

  public WorkersCommand(Io io) {
    this.io = io;
  }

  /** The command with its verbs. */
  public static CommandLine line(Io io) {
    CommandLine workers = new CommandLine(new WorkersCommand(io));
    workers.addSubcommand("list", new ListWorkers(io));
    workers.addSubcommand("send", new Send(io));
    workers.addSubcommand("stop", new Stop(io));
    return workers;
  }

  @Override
  public Integer call() {
    io.err().println("cortex workers: say list, send or stop.");
    return CortexCommand.USAGE;
  }

  /** {@code cortex workers list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List workers: of one main session, else of every team.")
  public static final class ListWorkers implements Callable<Integer> {
    private final Io io;

    @Option(names = "--session", paramLabel = "SESSION", description = "Of this main session.")
    String session;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public ListWorkers(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Team.Listed listed =
                ServerCalls.post(io, Team.API_LIST, new Team.Listing(session), Team.Listed.class);
            if (json) {
              io.out().println(Json.writePretty(listed));
              return CortexCommand.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("ID", "NAME", "SESSION", "STATE", "LAST", "UNREAD", "REPORT"));
            for (Team.Worker w : listed.workers()) {
              rows.add(
                  List.of(
                      w.workerId(),
                      w.name(),
                      w.sessionId(),
                      w.state(),
                      w.lastStatus() == null ? "-" : w.lastStatus(),
                      Integer.toString(w.unread()),
                      w.lastReport() == null ? "" : oneLine(w.lastReport())));
            }
            Table.print(io.out(), rows);
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex workers send WORKER MESSAGE}. */
  @Command(
      name = "send",
      mixinStandardHelpOptions = true,
      description = "Send a worker a message: it joins its running turn or starts one.")
  public static final class Send implements Callable<Integer> {
    private final Io io;

    @Mixin WorkerRef ref;

    @Parameters(index = "1", paramLabel = "MESSAGE", description = "The message.")
    String message;

    public Send(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Team.Sent sent =
                ServerCalls.post(io, Team.API_SEND, ref.with(message), Team.Sent.class);
            io.err().println("cortex: " + sent.worker() + ": " + sent.message());
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex workers stop WORKER}. */
  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      description = "Stop a worker's current turn (the worker stays).")
  public static final class Stop implements Callable<Integer> {
    private final Io io;

    @Mixin WorkerRef ref;

    public Stop(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Team.Stopped stopped =
                ServerCalls.post(io, Team.API_STOP, ref.with(null), Team.Stopped.class);
            io.err().println("cortex: " + stopped.worker() + ": " + stopped.message());
            return stopped.stopped() ? CortexCommand.OK : CortexCommand.FAILED;
          });
    }
  }

  /** A worker as a person names it: its id, or its name with its main session. */
  static final class WorkerRef {
    @Parameters(index = "0", paramLabel = "WORKER", description = "Its id (wk-…) or name.")
    String worker;

    @Option(
        names = "--session",
        paramLabel = "SESSION",
        description = "Its main session (needed with a name).")
    String session;

    Team.Ref with(String message) {
      return new Team.Ref(worker, session, message);
    }
  }

  private static String oneLine(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() > 60 ? line.substring(0, 59) + "…" : line;
  }
}
