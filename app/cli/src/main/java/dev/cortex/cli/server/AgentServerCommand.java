package dev.cortex.cli.server;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.ProcessClock;
import dev.cortex.base.StartupException;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Launcher;
import dev.cortex.cli.LiveSettings;
import dev.cortex.cli.Services;
import dev.cortex.cli.Settings;
import dev.cortex.cli.Version;
import dev.cortex.cli.config.McpConfigFiles;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.models.HttpModelClient;
import dev.cortex.models.ModelCalls;
import dev.cortex.models.ModelCatalog;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Webhook;
import dev.cortex.server.daemon.Daemon;
import dev.cortex.server.daemon.DeviceCredentials;
import dev.cortex.server.daemon.DeviceSettings;
import dev.cortex.server.daemon.ServerSettings;
import dev.cortex.server.loop.ApiBackend;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.backend.ClaudeBackend;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.server.workbench.UiSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex server}: the agent server daemon (webhook, device hub), in the foreground until
 * SIGTERM or Ctrl-C, or {@code --detach}ed; {@code enroll} and {@code revoke} manage devices.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Run the agent server: the loopback webhook MCP tools call (127.0.0.1:3001) and the device"
          + " hub remote devices connect to (3002).",
      "Settings: [server] and [devices] in $CORTEX_HOME/config/cortex.toml, WEBHOOK_PORT,"
          + " CORTEX_CLIENT_PORT, CORTEX_CLIENT_BIND. Stops gracefully on SIGTERM or Ctrl-C."
    })
public final class AgentServerCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--detach",
      description =
          "Start the server in the background (log: $CORTEX_HOME/logs/server.log) and return once it answers.")
  boolean detach;

  @Option(
      names = "--webhook-port",
      paramLabel = "PORT",
      description = "The webhook's port (0: any free one).")
  Integer webhookPort;

  @Option(
      names = "--hub-port",
      paramLabel = "PORT",
      description = "The device hub's port (0: any free one).")
  Integer hubPort;

  @Option(
      names = "--hub-bind",
      paramLabel = "ADDRESS",
      description = "The hub's address (default 127.0.0.1).")
  String hubBind;

  @Option(names = "--log-file", hidden = true, paramLabel = "FILE")
  Path logFile;

  public AgentServerCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    if (detach) {
      return Detach.start(io, this);
    }
    if (logFile != null) {
      ServerLog.redirect(logFile);
    }
    Services services = new Services(io);
    ServerSettings server = overridden(services.settings().get(ServerSettings.TABLE));
    CortexHome home = io.home();
    Clock clock = ProcessClock.fromSystemProperties();
    LiveSettings live = Settings.live(home, io.env(), services.settings(), clock);
    Daemon daemon =
        Daemon.start(
            new Daemon.Options(
                home,
                io.env(),
                server,
                services.settings().get(DeviceSettings.TABLE),
                Version.get(),
                services.database(),
                () ->
                    McpConfigFiles.write(
                        home.configDir(), AllGroups.registry(services), Launcher.command(io)),
                clock,
                services.settings().get(SessionSettings.TABLE),
                () -> live.get().get(Budgets.TABLE),
                List.of(
                    new CommandBackend(),
                    new ClaudeBackend(
                        home,
                        io.env(),
                        groups ->
                            Composition.select(
                                    AllGroups.registry(services),
                                    String.join(",", groups),
                                    null,
                                    null)
                                .tools()
                                .stream()
                                .map(tool -> tool.name())
                                .collect(java.util.stream.Collectors.toSet())),
                    new ApiBackend(
                        home,
                        io.env(),
                        () -> ModelCatalog.of(live.get().tables(), io.env()),
                        new HttpModelClient(),
                        new InProcessServers(services),
                        ModelCalls.RetryPolicy.DEFAULT,
                        ModelCalls.Sleeper.REAL,
                        clock)),
                () -> live.get().get(WaitSettings.TABLE),
                new AllowlistCheck() {
                  @Override
                  public String refusal(List<String> groups, List<String> allowlist) {
                    // The composition a session's MCP server will make, checked the same way.
                    try {
                      Composition.select(
                          AllGroups.registry(services),
                          String.join(",", groups),
                          null,
                          String.join(",", allowlist));
                      return null;
                    } catch (StartupException e) {
                      return e.getMessage();
                    }
                  }

                  @Override
                  public List<String> tools(List<String> groups) {
                    return Composition.select(
                            AllGroups.registry(services), String.join(",", groups), null, null)
                        .tools()
                        .stream()
                        .map(tool -> tool.name())
                        .toList();
                  }
                },
                live::problem,
                services.settings().get(UiSettings.TABLE),
                () ->
                    dev.cortex.protocol.webhook.SubagentRoles.load(
                        home.configDir(), live.get().get(dev.cortex.core.AgentsTable.TABLE)),
                services.settings().get(dev.cortex.server.sessions.TeamSettings.TABLE),
                services.settings().get(dev.cortex.server.channels.slack.SlackSettings.TABLE),
                services.settings().get(dev.cortex.server.channels.feishu.FeishuSettings.TABLE)));
    Thread hook = new Thread(daemon::stop, "cortex-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    io.err()
        .println(
            "cortex server "
                + Version.get()
                + ": webhook http://"
                + server.webhookBind()
                + ":"
                + daemon.webhookPort()
                + ", device hub "
                + (server.hubKeystore() == null ? "ws" : "wss")
                + "://"
                + server.hubBind()
                + ":"
                + daemon.hubPort()
                + (daemon.uiPort() > 0
                    ? ", workbench "
                        + services.settings().get(UiSettings.TABLE).url(daemon.uiPort())
                        + " (sign in with 'cortex ui')"
                    : "")
                + " (stop with Ctrl-C or SIGTERM)");
    daemon.awaitStop();
    return CortexCommand.OK;
  }

  ServerSettings overridden(ServerSettings settings) {
    return new ServerSettings(
        webhookPort != null ? port(webhookPort, "--webhook-port") : settings.webhookPort(),
        settings.webhookBind(),
        hubPort != null ? port(hubPort, "--hub-port") : settings.hubPort(),
        hubBind != null ? hubBind : settings.hubBind(),
        settings.hubHostnames(),
        settings.hubKeystore(),
        settings.hubKeystorePasswordEnv(),
        settings.shutdownGrace());
  }

  private static int port(int value, String flag) {
    if (value < 0 || value > 65535) {
      throw new StartupException(flag + " needs a port from 0 to 65535, got " + value);
    }
    return value;
  }

  /** {@code cortex server enroll NAME}. */
  @Command(
      name = "enroll",
      mixinStandardHelpOptions = true,
      description =
          "Issue a one-time enrolment code for device NAME (adding it to machines.json if needed);"
              + " on the device, 'cortex client --enroll CODE' exchanges it for the device's own"
              + " credential.")
  public static final class Enroll implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "NAME", description = "The device's name.")
    String name;

    @Option(
        names = "--platform",
        paramLabel = "OS",
        description = "linux, macos, windows or other, recorded in machines.json for a new device.")
    String platform;

    @Option(
        names = "--description",
        paramLabel = "TEXT",
        description = "What the device is, for agents.")
    String description;

    public Enroll(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      if (!Machines.NAME.matcher(name).matches()) {
        return CortexCommand.usage(
            io,
            "cortex: '" + name + "' is not a device name: 1-64 letters, digits, '.', '_' or '-'");
      }
      if (platform != null
          && !java.util.List.of("linux", "macos", "windows", "other").contains(platform)) {
        return CortexCommand.usage(io, "cortex: --platform must be linux, macos, windows or other");
      }
      Services services = new Services(io);
      CortexHome home = io.home();
      Path registry = home.root().resolve(Machines.FILE);
      Machines machines;
      try {
        machines = Machines.read(registry);
      } catch (IllegalArgumentException e) {
        io.err().println("cortex: " + e.getMessage() + " (" + registry + "); fix it first.");
        return CortexCommand.FAILED;
      }
      if (machines.machines().get(name) == null || platform != null || description != null) {
        Machines.Machine existing = machines.machines().get(name);
        Machines.Machine entry =
            new Machines.Machine(
                name,
                platform != null ? platform : existing == null ? null : existing.platform(),
                description != null
                    ? description
                    : existing == null ? null : existing.description(),
                true);
        CortexHome.writeAtomically(registry, machines.with(entry));
        io.err()
            .println(
                "cortex: " + (existing == null ? "added " : "updated ") + name + " in " + registry);
      } else if (!machines.machines().get(name).enabled()) {
        io.err()
            .println(
                "cortex: "
                    + name
                    + " is disabled in "
                    + registry
                    + "; enable it there to connect.");
      }
      // The running server admits the device before the code is shown: a device that uses the
      // code at once is not refused as unregistered.
      Webhook.Registration running = tellRunningServer(registry);
      boolean enabled = Machines.read(registry).get(name) != null;
      if (running != null && enabled && !running.registered()) {
        io.err()
            .println(
                "cortex: the running server does not admit "
                    + name
                    + " after reading "
                    + registry
                    + "; no code was issued. See the server's log.");
        return CortexCommand.FAILED;
      }
      DeviceSettings devices = services.settings().get(DeviceSettings.TABLE);
      DeviceCredentials.Enrolment enrolment =
          new DeviceCredentials(services.database(), Clock.systemUTC())
              .enrol(name, devices.enrolmentValidFor());
      ServerSettings server = services.settings().get(ServerSettings.TABLE);
      String hub =
          running != null && running.hubUrl() != null
              ? running.hubUrl()
              : Daemon.runningHubUrl(home).orElse(null);
      if (hub == null) {
        hub = server.hubUrl(server.hubPort());
        io.err()
            .println(
                "cortex: no agent server is running; the URL below is the one its settings give"
                    + " (cortex.toml [server], CORTEX_CLIENT_PORT): start the server with them.");
      }
      io.out().println(enrolment.code());
      io.err()
          .println(
              "One-time code for "
                  + name
                  + ", valid until "
                  + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")
                      .withZone(ZoneId.systemDefault())
                      .format(enrolment.expiresAt())
                  + ". On the device run:\n  cortex client --server "
                  + hub
                  + " --name "
                  + name
                  + " --enroll "
                  + enrolment.code());
      return CortexCommand.OK;
    }

    /**
     * Asks the running server to read machines.json now; its answer, or null when no server answers
     * (one that starts later reads the file then).
     */
    private Webhook.Registration tellRunningServer(Path registry) {
      try {
        JsonNode answer =
            io.agentServer()
                .post(
                    Webhook.DEVICE_REGISTERED,
                    new Webhook.DeviceRegistered(name),
                    Duration.ofSeconds(10),
                    Cancellation.NONE,
                    event -> {});
        return new Webhook.Registration(
            answer.path("registered").asBoolean(false),
            answer.path("hub_url").isString() ? answer.path("hub_url").asString() : null);
      } catch (CodedException e) {
        if (Daemon.runningHubUrl(io.home()).isPresent()) {
          io.err()
              .println(
                  "cortex: the running server was not told of "
                      + registry
                      + " ("
                      + e.getMessage()
                      + "); it reads the file within a second, and the device asks again.");
        }
        return null;
      }
    }
  }

  /** {@code cortex server revoke NAME}. */
  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description =
          "Revoke device NAME's credential (and unused codes); a running server drops its"
              + " connection at once.")
  public static final class Revoke implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "NAME", description = "The device's name.")
    String name;

    public Revoke(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      if (!Machines.NAME.matcher(name).matches()) {
        return CortexCommand.usage(io, "cortex: '" + name + "' is not a device name");
      }
      Services services = new Services(io);
      boolean revoked = new DeviceCredentials(services.database(), Clock.systemUTC()).revoke(name);
      String dropped = "";
      try {
        io.agentServer()
            .post(
                Webhook.DEVICE_REVOKED,
                new Webhook.DeviceRevoked(name),
                Duration.ofSeconds(10),
                Cancellation.NONE,
                event -> {});
        dropped = " The running server dropped its connection.";
      } catch (CodedException e) {
        dropped = " (No running server was told: " + e.getMessage() + ")";
      }
      if (!revoked) {
        io.err().println("cortex: " + name + " had no credential or code to revoke." + dropped);
        return CortexCommand.FAILED;
      }
      io.err().println("cortex: revoked " + name + "'s credential." + dropped);
      return CortexCommand.OK;
    }
  }
}
