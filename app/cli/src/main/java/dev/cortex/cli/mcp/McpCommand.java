package dev.cortex.cli.mcp;

import dev.cortex.base.StartupException;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.cli.Services;
import dev.cortex.cli.Terminal;
import dev.cortex.cli.Version;
import dev.cortex.cli.workflows.CliConsent;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.Sessions;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.GroupRegistry;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.compose.StartupTrace;
import dev.cortex.mcp.compose.Warmup;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.transport.HttpServe;
import dev.cortex.mcp.transport.StdioTransport;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code cortex mcp}: serves the selected groups over stdio or streamable HTTP. */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Serve MCP on stdio (default) or streamable HTTP.",
      "Groups come from --bundles, else CORTEX_MCP_BUNDLES, else the default composition"
          + " (evidence, workflows); cortex tools list and call choose them the same way."
          + " --bundles all serves every group, e.g. the remote tools of core and the session"
          + " tools of ext. --tools (or CORTEX_MCP_TOOL_ALLOWLIST), --exclude-tools and"
          + " --read-only choose among their tools."
    })
public final class McpCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--bundles",
      paramLabel = "GROUPS",
      description =
          "Capability groups to serve: a comma list or a JSON array, or all (e.g."
              + " core,ext,evidence,workflows).")
  String bundles;

  @Mixin ToolChoiceOptions choice = new ToolChoiceOptions();

  @Option(
      names = "--default-bundles",
      paramLabel = "GROUPS",
      description =
          "Groups to serve when neither --bundles nor CORTEX_MCP_BUNDLES chooses (the agent"
              + " server's configuration files use it).")
  String defaultBundles;

  @Option(
      names = "--http",
      paramLabel = "PORT",
      description = "Serve streamable HTTP on this port (0 picks a free one) instead of stdio.")
  Integer httpPort;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address to bind with --http (default: ${DEFAULT-VALUE}). A non-loopback address requires CORTEX_MCP_HTTP_TOKEN.")
  String bind;

  /**
   * The server's surroundings lack {@code CORTEX_ASSUME_YES}: it is honoured by the command line
   * only, and no step, dialog or subprocess of the server sees it.
   */
  public McpCommand(Io io) {
    this.io = io.without(CliConsent.ASSUME_YES);
  }

  /**
   * Parses the common {@code cortex mcp} command lines without building picocli's model, which
   * costs more start-up time than everything else the server does before its first answer. Returns
   * null for anything else (help, mistakes, other verbs), which picocli then handles.
   */
  public static McpCommand parseQuickly(Io io, String... args) {
    if (args.length == 0 || !args[0].equals("mcp")) {
      return null;
    }
    McpCommand command = new McpCommand(io);
    command.bind = "127.0.0.1";
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--read-only")) {
        command.choice.readOnly = true;
        continue;
      }
      int eq = arg.indexOf('=');
      String name = eq > 0 ? arg.substring(0, eq) : arg;
      String value;
      if (eq > 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
        value = args[++i];
      } else {
        return null;
      }
      switch (name) {
        case "--bundles" -> command.bundles = value;
        case "--default-bundles" -> command.defaultBundles = value;
        case "--bind" -> command.bind = value;
        case "--tools" -> command.choice.tools = value;
        case "--exclude-tools" -> command.choice.excludeTools = value;
        case "--http" -> {
          if (!value.matches("[0-9]{1,5}")) {
            return null;
          }
          command.httpPort = Integer.valueOf(value);
        }
        default -> {
          return null;
        }
      }
    }
    return command;
  }

  @Override
  public Integer call() throws Exception {
    StartupTrace.mark("command parsed");
    Services services = new Services(io).servingMcp();
    GroupRegistry registry = AllGroups.registry(services);
    Composition composition =
        ToolsCommand.compose(io, registry, bundles, defaultBundles, choice.choice(io));
    ToolInvoker invoker = ToolsCommand.invoker(io, services, composition);
    McpAssembly.ServerIdentity identity =
        new McpAssembly.ServerIdentity(
            "cortex", "Cortex", Version.get(), instructions(composition));
    if (httpPort != null) {
      return serveHttp(composition, invoker, identity);
    }
    if (Terminal.stdinIsTerminal()) {
      io.err()
          .println(
              ConnectHint.text(
                  Launcher.command(io), composition.serverKey(registry), bundles, composition));
    }
    StdioTransport transport =
        new StdioTransport(
                McpAssembly.sdkMapper(), io.in(), io.out(), StdioTransport.DEFAULT_MAX_LINE_BYTES)
            .servingTools(toolNames(invoker));
    StartupTrace.mark("composed");
    McpAsyncServer server =
        McpAssembly.build(
            McpServer.async(transport),
            composition,
            invoker,
            identity,
            new McpAssembly.TransportHooks(transport, transport.cancelSignals()),
            sessions());
    StartupTrace.mark("server built");
    Warmup.inBackground(invoker::prepare);
    transport.serve();
    server.closeGracefully().block(java.time.Duration.ofSeconds(5));
    services.awaitRuns();
    return CortexCommand.OK;
  }

  private int serveHttp(
      Composition composition, ToolInvoker invoker, McpAssembly.ServerIdentity identity)
      throws Exception {
    if (httpPort < 0 || httpPort > 65535) {
      throw new StartupException("--http needs a port between 0 and 65535, got " + httpPort);
    }
    HttpServe.Options options = HttpServe.Options.fromEnvironment(bind, httpPort, io.env());
    HttpServe server =
        HttpServe.start(
            options,
            toolNames(invoker),
            (provider, hooks) ->
                McpAssembly.build(
                    McpServer.async(provider), composition, invoker, identity, hooks, sessions()));
    io.err()
        .println(
            "cortex: serving MCP at "
                + server.endpoint()
                + " (groups: "
                + String.join(", ", composition.groupNames())
                + "; "
                + composition.tools().size()
                + " tools)."
                + ConnectHint.moreGroups(composition));
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "cortex-http-stop"));
    server.join();
    return CortexCommand.OK;
  }

  /** The session this server acts for, as the agent server set it in the environment. */
  private Sessions sessions() {
    return new Sessions(SessionIdentity.fromEnvironment(io.env()));
  }

  private static java.util.List<String> toolNames(ToolInvoker invoker) {
    return invoker.tools().stream().map(dev.cortex.mcp.tool.ToolSpec::name).toList();
  }

  /**
   * The server's instructions: how the groups served fit together, from each group's own paragraph
   * (a group with none is named as serving nothing yet), and how errors come back.
   */
  public static String instructions(Composition composition) {
    List<String> names = composition.groupNames();
    StringBuilder text =
        new StringBuilder("Cortex serves the capability groups ")
            .append(String.join(", ", names))
            .append(" on this server.");
    for (dev.cortex.mcp.compose.CapabilityGroup group : composition.groups()) {
      text.append("\n\n");
      if (group.instructions() != null) {
        text.append(group.instructions());
      } else if (group.tools().isEmpty()) {
        text.append(group.name()).append(": serves no tools in this version.");
      } else {
        text.append(group.name()).append(": ").append(group.description());
      }
    }
    if (names.contains("evidence") && names.contains("workflows")) {
      text.append(
          "\n\nTogether: a workflow run can back a claim. Record it with cortex_add_evidence"
              + " (source_type test, build or log; source_ref the run id) after reading its trace"
              + " with runs_show, and let cortex_review judge the claim.");
    }
    text.append(
        "\n\nA tool error is a result with isError and the JSON body"
            + " {\"error\":{\"code\",\"message\"}}: the code is stable, the message says what to"
            + " fix. Arguments are checked against each tool's input schema, and nothing is"
            + " coerced.");
    return text.toString();
  }
}
