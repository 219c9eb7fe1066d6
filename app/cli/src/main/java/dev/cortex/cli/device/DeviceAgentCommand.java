package dev.cortex.cli.device;

import dev.cortex.base.CortexHome;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Version;
import dev.cortex.device.ClientOptions;
import dev.cortex.device.DeviceAgent;
import dev.cortex.protocol.hub.Machines;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cortex client}: the agent of a remote device. Connects to the hub of a {@code cortex
 * server}, runs the commands agents send, and reconnects when the connection drops.
 */
@Command(
    name = "client",
    mixinStandardHelpOptions = true,
    description = {
      "Connect this machine to an agent server's device hub as device NAME and carry out the"
          + " commands of its remote tools until stopped (Ctrl-C, SIGTERM).",
      "The first time, pass the code of 'cortex server enroll NAME' with --enroll; the device's"
          + " credential is then kept in $CORTEX_HOME/config/. CORTEX_CLIENT_TOKEN (the hub's"
          + " shared token) is accepted instead."
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
      "0:stopped (Ctrl-C, SIGTERM)",
      "1:could not run (e.g. the hub could not be reached to enrol)",
      "2:bad usage",
      "3:the hub refused this device and asking again cannot help (a wrong or revoked"
          + " credential or code, a name or page the hub does not answer to, another protocol"
          + " version); the reason is printed"
    })
public final class DeviceAgentCommand implements Callable<Integer> {
  /** Output kept of one foreground command: its first and last 2 MiB. */
  static final int CAPTURE_BYTES = 4 * 1024 * 1024;

  private final Io io;

  @Option(
      names = "--server",
      required = true,
      paramLabel = "URL",
      description = "The hub, e.g. ws://server:3002 (wss:// when the hub has TLS).")
  String server;

  @Option(
      names = "--name",
      required = true,
      paramLabel = "NAME",
      description = "This device's name in the server's machines.json.")
  String name;

  @Option(
      names = "--enroll",
      paramLabel = "CODE",
      description = "A one-time code of 'cortex server enroll NAME'.")
  String enroll;

  @Option(
      names = "--ca",
      paramLabel = "FILE",
      description = "A PEM certificate to trust for wss (a self-signed hub's).")
  Path ca;

  @Option(
      names = "--grep-engine",
      paramLabel = "ENGINE",
      defaultValue = "auto",
      description =
          "auto (ripgrep when it is on the PATH, else the built-in search), ripgrep or java"
              + " (default: ${DEFAULT-VALUE}).")
  String grepEngine;

  @Option(
      names = "--login-shell-per-command",
      description =
          "Run each command in a login shell of its own (bash -lc), reading the profile every"
              + " time, instead of in the login environment resolved once (and again when a"
              + " profile file changes).")
  boolean loginShellPerCommand;

  @Option(
      names = "--workdir",
      paramLabel = "DIR",
      description = "Where commands start and relative searches begin (default: your home folder).")
  Path workdir;

  public DeviceAgentCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    URI hub;
    try {
      hub = URI.create(server.strip());
    } catch (IllegalArgumentException e) {
      return CortexCommand.usage(
          io, "cortex: --server '" + server + "' is not a URL such as ws://host:3002");
    }
    String scheme = hub.getScheme() == null ? "" : hub.getScheme();
    if (scheme.equals("http") || scheme.equals("https")) {
      hub =
          URI.create(
              (scheme.equals("https") ? "wss" : "ws") + server.strip().substring(scheme.length()));
      scheme = hub.getScheme();
    }
    if (!scheme.equals("ws") && !scheme.equals("wss") || hub.getHost() == null) {
      return CortexCommand.usage(
          io, "cortex: --server must be ws://HOST:PORT or wss://HOST:PORT, got '" + server + "'");
    }
    if (!Machines.NAME.matcher(name).matches()) {
      return CortexCommand.usage(
          io,
          "cortex: --name '"
              + name
              + "' is not a device name: 1-64 letters, digits, '.', '_' or '-'");
    }
    if (ca != null && !Files.isReadable(ca)) {
      return CortexCommand.usage(io, "cortex: --ca: cannot read " + ca);
    }
    Path work =
        workdir != null ? workdir.toAbsolutePath() : Path.of(System.getProperty("user.home"));
    if (!Files.isDirectory(work)) {
      return CortexCommand.usage(io, "cortex: --workdir: " + work + " is not a directory");
    }
    if (!java.util.List.of("auto", "ripgrep", "java").contains(grepEngine)) {
      return CortexCommand.usage(io, "cortex: --grep-engine must be auto, ripgrep or java");
    }
    CortexHome home = io.home();
    Map<String, String> environment = new HashMap<>(io.env());
    String shared = environment.remove("CORTEX_CLIENT_TOKEN");
    environment.remove("CORTEX_WEBHOOK_TOKEN");
    DeviceAgent agent =
        new DeviceAgent(
            new ClientOptions(
                hub,
                name,
                enroll,
                shared == null || shared.isBlank() ? null : shared.strip(),
                home.configDir().resolve("device-" + name + ".credential"),
                ca,
                home.root().resolve("jobs").resolve(name),
                home.root().resolve("AGENTS.md"),
                work,
                environment,
                Version.get(),
                CAPTURE_BYTES,
                grepEngine,
                Clock.systemUTC(),
                home.root(),
                loginShellPerCommand));
    Runtime.getRuntime().addShutdownHook(new Thread(agent::close, "cortex-client-stop"));
    io.err().println("cortex client " + Version.get() + ": connecting to " + hub + " as " + name);
    int code = agent.run();
    if (code != 0) {
      io.err().println("cortex: " + agent.failure());
    }
    return code;
  }
}
