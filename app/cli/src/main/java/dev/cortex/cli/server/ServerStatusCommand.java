package dev.cortex.cli.server;

import dev.cortex.base.CodedException;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex server status}: whether the agent server of this home runs, its pid, ports and
 * uptime, the devices online and its sessions. Exit 0 when it runs, {@value #NOT_RUNNING} when it
 * does not (as init scripts' status verbs say), 1 when it runs but does not answer.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Tell whether the agent server of this home runs: pid, ports, uptime, devices online and"
          + " sessions.",
      "Exit codes: 0 it runs; 3 no server runs for this home; 1 it runs but does not answer."
    })
public final class ServerStatusCommand implements Callable<Integer> {
  /** The exit code when no server runs. */
  static final int NOT_RUNNING = 3;

  private static final Duration ASK = Duration.ofSeconds(5);

  private final Io io;

  @Option(names = "--json", description = "Print the status as JSON.")
  boolean json;

  public ServerStatusCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws InterruptedException {
    RunningServer server = RunningServer.of(io.home());
    Map<String, Object> status = new LinkedHashMap<>();
    if (server == null) {
      status.put("running", false);
      print(status, "cortex server: not running for " + io.home().root());
      return NOT_RUNNING;
    }
    status.put("running", true);
    status.put("pid", server.pid());
    status.put("version", server.self().path("version").asString(null));
    status.put("webhook_port", server.webhookPort());
    status.put("hub_port", server.self().path("hub_port").asInt());
    status.put("hub_url", server.self().path("hub_url").asString(null));
    status.put("ui_url", server.self().path("ui_url").asString(null));
    status.put("started_at", server.self().path("started_at").asString(null));
    JsonNode health = health(server.webhookPort());
    if (health == null) {
      status.put("answering", false);
      print(
          status,
          "cortex server: pid "
              + server.pid()
              + " runs but its webhook (127.0.0.1:"
              + server.webhookPort()
              + ") does not answer; see $CORTEX_HOME/logs/server.log");
      return CortexCommand.FAILED;
    }
    status.put("answering", true);
    status.put("state", health.path("status").asString());
    status.put("uptime_seconds", health.path("uptime_seconds").asLong());
    status.put("devices_registered", health.path("devices_registered").asInt());
    List<String> online =
        health.path("devices_online").valueStream().map(JsonNode::asString).toList();
    status.put("devices_online", online);
    status.put("sessions", sessions());
    print(status, text(status, online));
    return CortexCommand.OK;
  }

  private void print(Map<String, Object> status, String text) {
    io.out().println(json ? Json.writePretty(status) : text);
  }

  private static String text(Map<String, Object> status, List<String> online) {
    StringBuilder text =
        new StringBuilder("cortex server: running (")
            .append(status.get("state"))
            .append("), pid ")
            .append(status.get("pid"))
            .append(", version ")
            .append(status.get("version"))
            .append('\n')
            .append("  webhook   127.0.0.1:")
            .append(status.get("webhook_port"))
            .append('\n')
            .append("  hub       port ")
            .append(status.get("hub_port"))
            .append(status.get("hub_url") == null ? "" : " (" + status.get("hub_url") + ")")
            .append('\n')
            .append(
                status.get("ui_url") == null
                    ? ""
                    : "  workbench " + status.get("ui_url") + " (sign in with 'cortex ui')\n")
            .append("  uptime    ")
            .append(uptime((Long) status.get("uptime_seconds")))
            .append('\n')
            .append("  devices   ")
            .append(online.size())
            .append(" online of ")
            .append(status.get("devices_registered"))
            .append(online.isEmpty() ? "" : ": " + String.join(", ", online))
            .append('\n')
            .append("  sessions  ");
    if (status.get("sessions") instanceof Map<?, ?> sessions) {
      text.append(sessions.get("total"))
          .append(Boolean.TRUE.equals(sessions.get("more")) ? "+" : "")
          .append(", ")
          .append(sessions.get("in_turn"))
          .append(" in a turn");
    } else {
      text.append("unknown (").append(status.get("sessions")).append(')');
    }
    return text.toString();
  }

  /** {@code 3d 4h 5m 6s}, leading zero units left out. */
  static String uptime(long seconds) {
    long days = seconds / 86_400;
    long hours = seconds % 86_400 / 3_600;
    long minutes = seconds % 3_600 / 60;
    StringBuilder text = new StringBuilder();
    if (days > 0) {
      text.append(days).append("d ");
    }
    if (days > 0 || hours > 0) {
      text.append(hours).append("h ");
    }
    if (days > 0 || hours > 0 || minutes > 0) {
      text.append(minutes).append("m ");
    }
    return text.append(seconds % 60).append('s').toString();
  }

  /** The webhook's {@code GET /health}, or null when it does not answer. */
  private static JsonNode health(int port) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + Webhook.HEALTH))
            .timeout(ASK)
            .GET()
            .build();
    try {
      HttpResponse<String> response =
          HttpClient.newBuilder()
              .connectTimeout(ASK)
              .build()
              .send(request, HttpResponse.BodyHandlers.ofString());
      return Json.mapper().readTree(response.body());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The sessions, counted from the session API (its newest {@value Sessions#MAX_LIST}). */
  private Object sessions() {
    try {
      JsonNode listed =
          io.agentServer()
              .post(
                  Sessions.LIST,
                  new Sessions.Listing(Sessions.MAX_LIST),
                  ASK,
                  dev.cortex.base.Cancellation.NONE,
                  event -> {});
      int total = 0;
      int inTurn = 0;
      for (JsonNode session : listed.path("sessions")) {
        total++;
        if (session.path("runningExecution").isString()) {
          inTurn++;
        }
      }
      Map<String, Object> sessions = new LinkedHashMap<>();
      sessions.put("total", total);
      sessions.put("in_turn", inTurn);
      sessions.put("more", total == Sessions.MAX_LIST);
      return sessions;
    } catch (CodedException e) {
      return e.getMessage();
    }
  }
}
