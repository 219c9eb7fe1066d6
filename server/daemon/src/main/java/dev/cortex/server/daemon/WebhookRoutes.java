package dev.cortex.server.daemon;

import dev.cortex.base.Deadline;
import dev.cortex.base.HopTrace;
import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes of the loopback webhook that MCP tools call (behind the {@code x-cortex-token} guard):
 * remote commands and their cancel, the device list, and the revocation notice. Each checks the
 * caller's webhook protocol version first.
 */
final class WebhookRoutes {
  private static final Logger log = LoggerFactory.getLogger(WebhookRoutes.class);

  private final DeviceHub hub;
  private final String version;
  private final Instant started;
  private final Supplier<Optional<SettingsProblem>> settingsProblem;
  private final JsonRoutes routes;

  WebhookRoutes(
      DeviceHub hub,
      String version,
      Instant started,
      Supplier<Optional<SettingsProblem>> settingsProblem) {
    this.hub = hub;
    this.version = version;
    this.started = started;
    this.settingsProblem = settingsProblem;
    this.routes = new JsonRoutes(version);
  }

  private Handler post(JsonRoutes.Route route) {
    return routes.post(route);
  }

  private boolean protocolMatches(Request request, Response response, Callback callback) {
    return routes.protocolMatches(request, response, callback);
  }

  private static final String REMOTE_COMMAND_USAGE =
      "Send {command_id, device, action (one of bash, read, write, edit, glob, grep, job,"
          + " read_bytes), params,"
          + " timeout_millis > 0}.";

  /** {@code POST /webhook/remote-command}: streams output events, then the result. */
  Handler remoteCommand() {
    return post(
        (body, request, response, callback) -> {
          Webhook.RemoteCommand command =
              JsonRoutes.read(
                  body, Webhook.RemoteCommand.class, REMOTE_COMMAND_USAGE, response, callback);
          if (command == null) {
            return;
          }
          HopTrace.mark(command.commandId(), "webhook.received");
          if (Action.of(command.action()) == null || command.timeoutMillis() <= 0) {
            JsonRoutes.invalid(response, callback, REMOTE_COMMAND_USAGE);
            return;
          }
          Deadline deadline =
              Deadline.after(Duration.ofMillis(command.timeoutMillis()), hub.clock())
                  .atMost(Webhook.INFRASTRUCTURE_DEADLINE);
          request.addFailureListener(
              failure -> hub.cancel(command.commandId(), "the caller went away"));
          try (JsonRoutes.Lines lines = JsonRoutes.stream(response)) {
            Streamed streamed = new Streamed(lines);
            HubMessage.Result result =
                hub.run(
                    command.commandId(),
                    command.device(),
                    command.action(),
                    command.params(),
                    deadline,
                    streamed::output);
            if (result.ok()) {
              lines.last(Map.of("result", result.result() == null ? Map.of() : result.result()));
            } else {
              lines.last(Map.of("error", result.error()));
            }
            HopTrace.mark(command.commandId(), "webhook.answered");
            if (lines.failed()) {
              log.debug("the caller of {} went away", command.commandId());
            }
            callback.succeeded();
          } catch (IOException e) {
            callback.failed(e);
          }
        });
  }

  /** {@code POST /webhook/remote-command/cancel}. */
  Handler remoteCancel() {
    return post(
        (body, request, response, callback) -> {
          String usage = "Send {\"command_id\": ID}.";
          Webhook.RemoteCancel cancel =
              JsonRoutes.read(body, Webhook.RemoteCancel.class, usage, response, callback);
          if (cancel == null) {
            return;
          }
          if (cancel.commandId() == null) {
            JsonRoutes.invalid(response, callback, usage);
            return;
          }
          boolean cancelled = hub.cancel(cancel.commandId(), "the caller cancelled it");
          JsonBodies.send(
              response, callback, 200, Map.of("result", Map.of("cancelled", cancelled)));
        });
  }

  /** {@code POST /webhook/devices/revoked}: drops the device's connection at once. */
  Handler deviceRevoked() {
    return post(
        (body, request, response, callback) -> {
          String usage = "Send {\"device\": NAME}.";
          Webhook.DeviceRevoked revoked =
              JsonRoutes.read(body, Webhook.DeviceRevoked.class, usage, response, callback);
          if (revoked == null) {
            return;
          }
          if (revoked.device() == null) {
            JsonRoutes.invalid(response, callback, usage);
            return;
          }
          hub.drop(revoked.device(), "credential revoked");
          JsonBodies.send(response, callback, 200, Map.of("result", Map.of("dropped", true)));
        });
  }

  /**
   * {@code POST /webhook/devices/registered}: reads machines.json at once ({@code admits} does) and
   * answers whether it admits the device, with the URL devices connect to.
   */
  Handler deviceRegistered(java.util.function.Predicate<String> admits, Supplier<String> hubUrl) {
    return post(
        (body, request, response, callback) -> {
          String usage = "Send {\"device\": NAME}.";
          Webhook.DeviceRegistered registered =
              JsonRoutes.read(body, Webhook.DeviceRegistered.class, usage, response, callback);
          if (registered == null) {
            return;
          }
          if (registered.device() == null) {
            JsonRoutes.invalid(response, callback, usage);
            return;
          }
          JsonBodies.send(
              response,
              callback,
              200,
              Map.of(
                  "result",
                  new Webhook.Registration(admits.test(registered.device()), hubUrl.get())));
        });
  }

  /** {@code GET /webhook/devices}: registered devices and which are online. */
  Handler devices() {
    return new Handler.Abstract.NonBlocking() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        if (!protocolMatches(request, response, callback)) {
          return true;
        }
        JsonBodies.send(response, callback, 200, Map.of("result", Map.of("devices", listing())));
        return true;
      }
    };
  }

  List<Map<String, Object>> listing() {
    Machines machines = hub.machines();
    List<Map<String, Object>> devices = new ArrayList<>();
    for (Machines.Machine machine : machines.enabled()) {
      DeviceLink link = hub.link(machine.name());
      Map<String, Object> device = new LinkedHashMap<>();
      device.put("name", machine.name());
      device.put("platform", link != null ? link.hello().platform() : machine.platform());
      device.put("description", machine.description());
      device.put("online", link != null);
      if (link != null) {
        device.put("connected_at", link.connectedAt().toString());
        device.put("version", link.hello().version());
        device.put("capabilities", link.hello().capabilities());
        device.put("running", link.running());
      }
      devices.add(device);
    }
    return devices;
  }

  /** {@code GET /health}: for people and scripts; no token, nothing secret. */
  Handler health() {
    return new Handler.Abstract.NonBlocking() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        Map<String, Object> health = new LinkedHashMap<>();
        health.put("status", hub.stopping() ? "stopping" : "ok");
        health.put("service", "cortex-server");
        health.put("version", version);
        health.put("webhook_protocol", Webhook.PROTOCOL);
        health.put("hub_protocol", Hub.VERSION);
        health.put("uptime_seconds", Duration.between(started, hub.now()).toSeconds());
        health.put("devices_registered", hub.machines().enabled().size());
        health.put("devices_online", hub.online().stream().map(DeviceLink::name).toList());
        health.put("settings", settingsHealth());
        JsonBodies.send(response, callback, hub.stopping() ? 503 : 200, health);
        return true;
      }
    };
  }

  /**
   * {@code {"status": "ok"}}, or {@code "invalid"} with the problem of cortex.toml's last edit and
   * since when (the last good settings stay in force meanwhile).
   */
  private Map<String, Object> settingsHealth() {
    Map<String, Object> settings = new LinkedHashMap<>();
    Optional<SettingsProblem> problem = settingsProblem.get();
    settings.put("status", problem.isEmpty() ? "ok" : "invalid");
    problem.ifPresent(
        p -> {
          settings.put("problem", p.message());
          settings.put("since", p.since().toString());
        });
    return settings;
  }

  /** A command's output as event lines, up to {@link Hub#MAX_STREAMED_CHARS}. */
  private static final class Streamed {
    private final JsonRoutes.Lines lines;
    private int streamed;

    Streamed(JsonRoutes.Lines lines) {
      this.lines = lines;
    }

    synchronized void output(String stream, String data) {
      if (data == null || streamed >= Hub.MAX_STREAMED_CHARS) {
        return;
      }
      streamed += data.length();
      lines.write(Webhook.OutputEvent.of(stream, data));
    }
  }

  static ErrorBody error(String code, String message) {
    return new ErrorBody(code, message);
  }
}
