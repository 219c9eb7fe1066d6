package dev.cortex.server.daemon;

import dev.cortex.http.GuardedHandler;
import dev.cortex.http.JsonBodies;
import dev.cortex.http.RequestGuard;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.Machines;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes of the hub's port: the WebSocket endpoint {@code /hub}, which a device reaches with
 * {@code Authorization: Bearer} (its own credential with {@code X-Cortex-Device}, or the shared
 * {@code CORTEX_CLIENT_TOKEN}), and {@code POST /enrol}, where a device exchanges a one-time code
 * for its credential. Every refusal happens before the upgrade.
 */
final class HubRoutes {
  private static final Logger log = LoggerFactory.getLogger(HubRoutes.class);
  private static final Duration HELLO_WITHIN = Duration.ofSeconds(10);
  private static final int MAX_ENROL_FAILURES_PER_MINUTE = 20;

  private final DeviceHub hub;
  private final DeviceCredentials credentials;
  private final String sharedToken;
  private final String serverVersion;
  private final Map<DeviceSocketListener, Instant> ungreeted = new ConcurrentHashMap<>();
  private final Map<String, Integer> enrolFailures = new ConcurrentHashMap<>();
  private volatile long failureMinute;
  private volatile java.util.function.Supplier<RequestGuard> guard = () -> null;

  HubRoutes(DeviceHub hub, DeviceCredentials credentials, String sharedToken, String version) {
    this.hub = hub;
    this.credentials = credentials;
    this.sharedToken = sharedToken;
    this.serverVersion = version;
  }

  /** Whether a presented bearer secret admits the upgrade. */
  boolean accepts(String presented, UnaryOperator<String> headers) {
    if (sharedToken != null
        && RequestGuard.TokenCheck.equalTo(sharedToken).accepts(presented, headers)) {
      return true;
    }
    String device = headers.apply(Hub.DEVICE_HEADER);
    return device != null
        && Machines.NAME.matcher(device).matches()
        && credentials.verify(device, presented);
  }

  /** Sets the guard of the WebSocket endpoint, once the hub's port is known. */
  void guard(java.util.function.Supplier<RequestGuard> value) {
    this.guard = value;
  }

  /** The WebSocket endpoint, behind the guard set with {@link #guard}. */
  Handler websocket(Server server) {
    WebSocketUpgradeHandler upgrade =
        WebSocketUpgradeHandler.from(
            server,
            container -> {
              container.setMaxTextMessageSize(Hub.MAX_MESSAGE_BYTES);
              container.setIdleTimeout(Duration.ofSeconds(60));
              // The route at Hub.PATH already chose this handler; inside it, any path matches.
              container.addMapping(
                  "/*",
                  (request, response, callback) -> {
                    String device = request.getHeaders().get(Hub.DEVICE_HEADER);
                    if (device != null && hub.machines().get(device) == null) {
                      JsonBodies.error(
                          response,
                          callback,
                          403,
                          "NOT_REGISTERED",
                          "Device '" + device + "' is not registered in machines.json.");
                      return null;
                    }
                    // The credential was checked against this name; the hello must give it too.
                    DeviceSocketListener endpoint =
                        new DeviceSocketListener(hub, device, serverVersion);
                    ungreeted.put(endpoint, hub.now());
                    return endpoint;
                  });
            });
    return new GuardedHandler(() -> guard.get(), upgrade);
  }

  /** Closes connections that sent no hello in time; called every second. */
  void sweep() {
    Instant limit = hub.now().minus(HELLO_WITHIN);
    ungreeted.forEach(
        (endpoint, opened) -> {
          if (endpoint.greeted()) {
            ungreeted.remove(endpoint);
          } else if (opened.isBefore(limit)) {
            ungreeted.remove(endpoint);
            endpoint.closeUngreeted();
          }
        });
  }

  /** {@code POST /enrol {"device": NAME, "code": CODE}}: answers the device's new credential. */
  Handler enrol() {
    return new Handler.Abstract.NonBlocking() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"POST".equals(request.getMethod())) {
          JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use POST.");
          return true;
        }
        String from = Request.getRemoteAddr(request);
        if (tooManyFailures(from)) {
          JsonBodies.error(
              response, callback, 429, "TOO_MANY_ATTEMPTS", "Too many wrong codes; wait a minute.");
          return true;
        }
        byte[] body = JsonBodies.read(request, 4096);
        JsonRoutes.Parsed<Enrolment> json =
            body == null
                ? new JsonRoutes.Parsed<>(null, null)
                : JsonRoutes.strict(body, Enrolment.class);
        String device = json.value() == null ? null : json.value().device();
        String code = json.value() == null ? null : json.value().code();
        if (device == null || code == null || !Machines.NAME.matcher(device).matches()) {
          String usage = "Send {\"device\": NAME, \"code\": CODE} as JSON.";
          JsonBodies.error(
              response,
              callback,
              400,
              "INVALID_ARGUMENT",
              json.problem() == null ? usage : json.problem() + " " + usage);
          return true;
        }
        if (hub.machines().get(device) == null) {
          JsonBodies.error(
              response,
              callback,
              403,
              "NOT_REGISTERED",
              "Device '" + device + "' is not registered in machines.json.");
          return true;
        }
        String credential = credentials.exchange(device, code);
        if (credential == null) {
          failed(from);
          log.warn("a wrong or expired enrolment code for {} from {}", device, from);
          JsonBodies.error(
              response,
              callback,
              401,
              "UNAUTHORIZED",
              "The code is wrong, used or expired: run 'cortex server enroll "
                  + device
                  + "' again.");
          return true;
        }
        log.info("device {} enrolled from {}", device, from);
        JsonBodies.send(
            response, callback, 200, Map.of("device", device, "credential", credential));
        return true;
      }
    };
  }

  /** The body of {@code POST /enrol}. */
  record Enrolment(String device, String code) {}

  private boolean tooManyFailures(String from) {
    rollMinute();
    return enrolFailures.getOrDefault(from, 0) >= MAX_ENROL_FAILURES_PER_MINUTE;
  }

  private void failed(String from) {
    rollMinute();
    if (enrolFailures.size() < 10_000) {
      enrolFailures.merge(from, 1, Integer::sum);
    }
  }

  private void rollMinute() {
    long minute = hub.now().getEpochSecond() / 60;
    if (minute != failureMinute) {
      failureMinute = minute;
      enrolFailures.clear();
    }
  }
}
