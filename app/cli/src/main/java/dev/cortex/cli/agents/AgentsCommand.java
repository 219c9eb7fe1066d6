package dev.cortex.cli.agents;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.Subagents;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex agents list|show|stop}: the subagents that sessions' {@code agent} calls started,
 * through the agent server's session API ({@link Subagents#API_PREFIX}).
 */
@Command(
    name = "agents",
    mixinStandardHelpOptions = true,
    description = "Subagents of sessions: list, show, stop.")
public final class AgentsCommand implements Callable<Integer> {
  private final Io io;

  public AgentsCommand(Io io) {
    this.io = io;
  }

  /** The command with its verbs. */
  public static CommandLine line(Io io) {
    CommandLine agents = new CommandLine(new AgentsCommand(io));
    agents.addSubcommand("list", new ListAgents(io));
    agents.addSubcommand("show", new Show(io));
    agents.addSubcommand("stop", new Stop(io));
    return agents;
  }

  @Override
  public Integer call() {
    io.err().println("cortex agents: say list, show or stop.");
    return CortexCommand.USAGE;
  }

  /** {@code cortex agents list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List subagents: of one session oldest first, else every one newest first.")
  public static final class ListAgents implements Callable<Integer> {
    private final Io io;

    @Option(names = "--session", paramLabel = "SESSION", description = "Of this parent only.")
    String session;

    @Option(names = "--limit", paramLabel = "N", description = "At most N (1-200, default 50).")
    Integer limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public ListAgents(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Subagents.Listed listed =
                ServerCalls.post(
                    io,
                    Subagents.LIST,
                    new Subagents.Listing(session, limit),
                    Subagents.Listed.class);
            if (json) {
              io.out().println(Json.writePretty(listed));
              return CortexCommand.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("ID", "PARENT", "SESSION", "ROLE", "STATUS", "COST", "DESCRIPTION"));
            for (Subagents.View v : listed.agents()) {
              rows.add(
                  List.of(
                      v.agentId(),
                      v.parentSessionId(),
                      v.sessionId(),
                      v.subagentType(),
                      v.status(),
                      usd(v.costUsd()),
                      v.description()));
            }
            Table.print(io.out(), rows);
            io.out().println("total " + usd(listed.costUsd()));
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex agents show ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a subagent, its output and its child session's transcript.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "AGENT_ID", description = "e.g. sa-3fa2c1d0e4b5.")
    String id;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Subagents.Shown shown =
                ServerCalls.post(io, Subagents.SHOW, new Subagents.Ref(id), Subagents.Shown.class);
            if (json) {
              io.out().println(Json.writePretty(shown));
              return CortexCommand.OK;
            }
            Subagents.View v = shown.agent();
            io.out().println(v.agentId() + "  " + v.status() + "  " + usd(v.costUsd()));
            io.out()
                .println(
                    "  role:    "
                        + v.subagentType()
                        + " on "
                        + v.backend()
                        + (v.model() == null ? "" : " (" + v.model() + ")"));
            io.out().println("  parent:  " + v.parentSessionId());
            io.out().println("  session: " + v.sessionId());
            io.out().println("  about:   " + v.description());
            if (v.output() != null) {
              io.out().println("  output:  " + v.output());
            }
            if (v.error() != null) {
              io.out().println("  error:   " + v.error());
            }
            for (Sessions.Entry entry : shown.transcript()) {
              io.out().println(entry.seq() + " " + entry.kind() + " " + text(entry));
            }
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex agents stop ID}. */
  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      description = "Stop a running subagent; what it produced is discarded.")
  public static final class Stop implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "AGENT_ID", description = "e.g. sa-3fa2c1d0e4b5.")
    String id;

    public Stop(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return ServerCalls.attempt(
          io,
          () -> {
            Subagents.Stopped stopped =
                ServerCalls.post(
                    io, Subagents.API_STOP, new Subagents.Ref(id), Subagents.Stopped.class);
            io.err().println("cortex: " + stopped.agentId() + ": " + stopped.message());
            return stopped.stopped() ? CortexCommand.OK : CortexCommand.FAILED;
          });
    }
  }

  private static String text(Sessions.Entry entry) {
    String text = entry.body().path("text").asString(null);
    return text != null ? text : entry.body().toString();
  }

  private static String usd(double usd) {
    return String.format(Locale.ROOT, "$%.4f", usd);
  }
}
