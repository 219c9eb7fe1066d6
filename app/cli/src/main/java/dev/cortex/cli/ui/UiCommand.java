package dev.cortex.cli.ui;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.server.RunningServer;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex ui}: a one-time sign-in link to the running server's workbench, printed (and with
 * {@code --open} opened in a browser); {@code --logout-all} ends every browser session instead.
 */
@Command(
    name = "ui",
    mixinStandardHelpOptions = true,
    description = {
      "Print a one-time link that signs a browser in to the agent server's web workbench (valid"
          + " once, for 10 minutes).",
      "Exit codes: 0 done, 1 failed, 2 bad usage, 3 no agent server runs for this home."
    })
public final class UiCommand implements Callable<Integer> {
  /** The exit code when no server runs. */
  static final int NOT_RUNNING = 3;

  static final String LINK = "/webhook/ui/link";
  static final String LOGOUT_ALL = "/webhook/ui/logout-all";
  private static final Duration ASK = Duration.ofSeconds(10);

  private final Io io;

  @Option(names = "--open", description = "Also open the link in the default browser.")
  boolean open;

  @Option(names = "--logout-all", description = "End every browser session of the workbench.")
  boolean logoutAll;

  @Option(names = "--json", description = "Print the answer as JSON.")
  boolean json;

  public UiCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    RunningServer server = RunningServer.of(io.home());
    if (server == null) {
      io.err()
          .println(
              "cortex ui: no agent server runs for "
                  + io.home().root()
                  + "; start it with 'cortex server' (or 'cortex server --detach').");
      return NOT_RUNNING;
    }
    if (!server.self().path("ui_url").isString()) {
      io.err()
          .println(
              "cortex ui: the agent server runs without the workbench ([ui] enabled = false in"
                  + " cortex.toml).");
      return CortexCommand.FAILED;
    }
    try {
      return logoutAll ? logoutAll() : link();
    } catch (CodedException e) {
      io.err().println("cortex ui: " + e.code() + ": " + e.getMessage());
      return CortexCommand.FAILED;
    }
  }

  private int logoutAll() {
    JsonNode ended =
        io.agentServer().post(LOGOUT_ALL, Map.of(), ASK, Cancellation.NONE, event -> {});
    int count = ended.path("ended").asInt();
    if (json) {
      io.out().println(Json.writePretty(Map.of("ended", count)));
    } else {
      io.out().println("Ended " + count + " browser session" + (count == 1 ? "" : "s") + ".");
    }
    return CortexCommand.OK;
  }

  private int link() {
    JsonNode link = io.agentServer().post(LINK, Map.of(), ASK, Cancellation.NONE, event -> {});
    String url = link.path("url").asString();
    String expires = link.path("expires_at").asString();
    if (json) {
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("url", url);
      answer.put("expires_at", expires);
      io.out().println(Json.writePretty(answer));
    } else {
      io.out().println(url);
      io.err().println("Open it once, within 10 minutes (until " + expires + ").");
    }
    if (open && !browse(url)) {
      io.err().println("cortex ui: could not open a browser; open the link above yourself.");
    }
    return CortexCommand.OK;
  }

  /** Opens {@code url} with the platform's opener; whether one started. */
  private boolean browse(String url) {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    List<String> command;
    if (os.contains("mac")) {
      command = List.of("open", url);
    } else if (os.contains("win")) {
      command = List.of("rundll32", "url.dll,FileProtocolHandler", url);
    } else {
      command = List.of("xdg-open", url);
    }
    try {
      new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
