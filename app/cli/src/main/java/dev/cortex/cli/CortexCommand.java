package dev.cortex.cli;

import dev.cortex.cli.config.ConfigCommand;
import dev.cortex.cli.device.DeviceAgentCommand;
import dev.cortex.cli.evidence.CollectTestCommand;
import dev.cortex.cli.evidence.EvidenceCommand;
import dev.cortex.cli.help.CompletionCommand;
import dev.cortex.cli.help.ManPagesCommand;
import dev.cortex.cli.mcp.McpCommand;
import dev.cortex.cli.mcp.ToolsCommand;
import dev.cortex.cli.models.ModelsCommand;
import dev.cortex.cli.server.AgentServerCommand;
import dev.cortex.cli.server.ServerStatusCommand;
import dev.cortex.cli.server.ServerStopCommand;
import dev.cortex.cli.server.SignalCommand;
import dev.cortex.cli.sessions.InteractionsCommand;
import dev.cortex.cli.sessions.SessionsCommand;
import dev.cortex.cli.workflows.LibraryCommand;
import dev.cortex.cli.workflows.RunsCommand;
import dev.cortex.cli.workflows.StatusCommand;
import dev.cortex.cli.workflows.WorkerCommand;
import dev.cortex.cli.workflows.WorkflowCommands;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code cortex} command and its verbs. */
@Command(
    name = "cortex",
    mixinStandardHelpOptions = true,
    versionProvider = CortexCommand.VersionProvider.class,
    description = "An MCP server for accountable agent work on real machines.",
    synopsisSubcommandLabel = "COMMAND")
public final class CortexCommand implements Callable<Integer> {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  private final Io io;

  CortexCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return usage(io, "cortex: a command is required. Try 'cortex --help'.");
  }

  static int execute(Io io, String... args) {
    McpCommand fast = McpCommand.parseQuickly(io, args);
    if (fast != null) {
      try {
        return fast.call();
      } catch (Exception e) {
        return EscapedFailure.render(io, "cortex mcp", e);
      }
    }
    CommandLine line = commandLine(io);
    line.setOut(new PrintWriter(io.out(), true, StandardCharsets.UTF_8));
    line.setErr(new PrintWriter(io.err(), true, StandardCharsets.UTF_8));
    line.setExecutionExceptionHandler(
        (e, commandLine, parseResult) ->
            EscapedFailure.render(io, commandLine.getCommandSpec().qualifiedName(), e));
    // No verb takes @argument files: an @word is a value (cortex signal --data @FILE reads it).
    line.setExpandAtFiles(false);
    return line.execute(args);
  }

  /**
   * The whole command tree: every verb and its subcommands. Shell completion and the manual pages
   * are made from it too, so they name exactly the verbs and options there are.
   */
  public static CommandLine commandLine(Io io) {
    CommandLine line = new CommandLine(new CortexCommand(io));
    line.addSubcommand("mcp", new McpCommand(io));
    CommandLine tools = new CommandLine(new ToolsCommand(io));
    tools.addSubcommand("list", new ToolsCommand.ListTools(io));
    tools.addSubcommand("call", new ToolsCommand.CallTool(io));
    line.addSubcommand("tools", tools);
    CommandLine config = new CommandLine(new ConfigCommand(io));
    config.addSubcommand("mcp", new ConfigCommand.WriteMcpConfig(io));
    line.addSubcommand("config", config);
    CommandLine evidence = new CommandLine(new EvidenceCommand(io));
    evidence.addSubcommand("set-policy", new EvidenceCommand.SetPolicy(io));
    line.addSubcommand("evidence", evidence);
    line.addSubcommand("collect-test", new CollectTestCommand(io));
    line.addSubcommand("check", new WorkflowCommands.Check(io));
    line.addSubcommand("show", new WorkflowCommands.Show(io));
    line.addSubcommand("run", new WorkflowCommands.Run(io));
    CommandLine runs = new CommandLine(new RunsCommand(io));
    runs.addSubcommand("list", new RunsCommand.ListRuns(io));
    runs.addSubcommand("show", new RunsCommand.ShowRun(io));
    runs.addSubcommand("cancel", new RunsCommand.CancelRun(io));
    runs.addSubcommand("resume", new RunsCommand.ResumeRun(io));
    line.addSubcommand("runs", runs);
    line.addSubcommand("status", new StatusCommand(io));
    CommandLine library = new CommandLine(new LibraryCommand(io));
    library.addSubcommand("save", new LibraryCommand.Save(io));
    library.addSubcommand("list", new LibraryCommand.ListWorkflows(io));
    line.addSubcommand("workflows", library);
    line.addSubcommand("worker", new WorkerCommand(io));
    CommandLine server = new CommandLine(new AgentServerCommand(io));
    server.addSubcommand("enroll", new AgentServerCommand.Enroll(io));
    server.addSubcommand("revoke", new AgentServerCommand.Revoke(io));
    server.addSubcommand("status", new ServerStatusCommand(io));
    server.addSubcommand("stop", new ServerStopCommand(io));
    line.addSubcommand("server", server);
    line.addSubcommand("ui", new dev.cortex.cli.ui.UiCommand(io));
    line.addSubcommand("client", new DeviceAgentCommand(io));
    line.addSubcommand("signal", new SignalCommand(io));
    CommandLine sessions = new CommandLine(new SessionsCommand(io));
    sessions.addSubcommand("new", new SessionsCommand.New(io));
    sessions.addSubcommand("list", new SessionsCommand.ListSessions(io));
    sessions.addSubcommand("show", new SessionsCommand.Show(io));
    sessions.addSubcommand("send", new SessionsCommand.Send(io));
    sessions.addSubcommand("stop", new SessionsCommand.Stop(io));
    line.addSubcommand("sessions", sessions);
    line.addSubcommand("chat", new SessionsCommand.Chat(io));
    CommandLine interactions = new CommandLine(new InteractionsCommand(io));
    interactions.addSubcommand("list", new InteractionsCommand.ListInteractions(io));
    interactions.addSubcommand("show", new InteractionsCommand.Show(io));
    line.addSubcommand("interactions", interactions);
    line.addSubcommand("answer", new InteractionsCommand.Answer(io));
    line.addSubcommand("agents", dev.cortex.cli.agents.AgentsCommand.line(io));
    line.addSubcommand("workers", dev.cortex.cli.agents.WorkersCommand.line(io));
    line.addSubcommand("models", ModelsCommand.line(io));
    line.addSubcommand("plugins", dev.cortex.cli.plugins.PluginsCommand.line(io));
    line.addSubcommand("schedule", dev.cortex.cli.schedules.ScheduleCommand.line(io));
    line.addSubcommand("callback", new dev.cortex.cli.schedules.CallbackCommand(io));
    line.addSubcommand("plugin-proxy", new dev.cortex.cli.plugins.PluginProxyCommand(io));
    line.addSubcommand("completion", new CompletionCommand(io));
    line.addSubcommand("manpages", new ManPagesCommand(io));
    return line;
  }

  /** Prints {@code message} on standard error and returns {@link #USAGE}: the usage was wrong. */
  public static int usage(Io io, String message) {
    io.err().println(message);
    return USAGE;
  }

  /** Supplies {@code --version} from the build. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"cortex " + Version.get()};
    }
  }
}
