package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import dev.cortex.http.RequestGuard;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.Machines;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * The routes of the hub's port, each behind its {@link HubGate}: the WebSocket endpoint {@code
 * /hub}, which a device reaches with {@code Authorization: Bearer} (its own credential with {@code
 * X-Cortex-Device}, or the shared {@code CORTEX_CLIENT_TOKEN}), and {@code POST /enrol}, where a
 * device exchanges a one-time code for its credential. Every refusal happens before the upgrade.
 */
final class HubRoutes {
  private static final Logger log = LoggerFactory.getLogger(HubRoutes.class);
  private static final Duration HELLO_WITHIN = Duration.ofSeconds(10);

  /** How long a socket is followed for want of a hello at most, whatever became of it. */
  static final Duration FORGET_AFTER = HELLO_WITHIN.plus(Duration.ofMinutes(1));

  private final DeviceHub hub;
  private final DeviceCredentials credentials;
  private final String sharedToken;
  private final String serverVersion;
  private final HubHosts hosts;
  private final RefusalLog refusals;
  private final Map<DeviceSocketListener, Instant> ungreeted = new ConcurrentHashMap<>();
  private final EnrolAttempts attempts;

  HubRoutes(
      DeviceHub hub,
      DeviceCredentials credentials,
      String sharedToken,
      String version,
      HubHosts hosts) {
    this.hub = hub;
    this.credentials = credentials;
    this.sharedToken = sharedToken;
    this.serverVersion = version;
    this.hosts = hosts;
    this.attempts = new EnrolAttempts(hub.clock());
    this.refusals = new RefusalLog(hub.clock());
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

  /** The WebSocket endpoint, behind its gate: Origin, Host and the credential. */
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
                    if (device != null && hub.registered(device) == null) {
                      refuse(
                          "the connection",
                          request,
                          response,
                          callback,
                          device,
                          403,
                          Hub.Refusals.NOT_REGISTERED,
                          notRegistered(device));
                      return null;
                    }
                    // The credential was checked against this name; the hello must give it too.
                    return endpoint(device, Request.getRemoteAddr(request));
                  });
            });
    RequestGuard credential =
        RequestGuard.builder()
            .hosts(List.of("*"))
            .token(RequestGuard.TokenHeader.authorizationBearer(), this::accepts)
            .build();
    return new HubGate("the connection", hosts, credential, refusals, upgrade);
  }

  /**
   * A new device socket's listener, followed until its hello comes or it ends: it forgets itself
   * when its socket closes or fails.
   */
  DeviceSocketListener endpoint(String device, String peer) {
    DeviceSocketListener endpoint =
        new DeviceSocketListener(hub, device, serverVersion, refusals, peer, ungreeted::remove);
    ungreeted.put(endpoint, hub.now());
    return endpoint;
  }

  /**
   * Closes connections that sent no hello in time, forgets old wrong codes; called every second. A
   * socket whose open is never seen (its upgrade failed after it was answered) is forgotten {@link
   * #FORGET_AFTER} after its upgrade.
   */
  void sweep() {
    attempts.prune();
    Instant now = hub.now();
    Instant helloLimit = now.minus(HELLO_WITHIN);
    Instant forgetLimit = now.minus(FORGET_AFTER);
    ungreeted.forEach(
        (endpoint, opened) -> {
          if (endpoint.greeted()
              || (opened.isBefore(helloLimit) && endpoint.closeUngreeted())
              || opened.isBefore(forgetLimit)) {
            ungreeted.remove(endpoint);
          }
        });
  }

  /** How many sockets are followed for want of a hello (for tests). */
  int ungreeted() {
    return ungreeted.size();
  }

  /**
   * {@code POST /enrol {"device": NAME, "code": CODE}}, behind its gate (Origin and Host): answers
   * the device's new credential.
   */
  Handler enrol() {
    return new HubGate("an enrolment", hosts, null, refusals, new Enrol());
  }

  /** The most an enrolment's body may be: a device's name and a code fit many times over. */
  static final int MAX_ENROLMENT = 4096;

  private final class Enrol extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (!"POST".equals(request.getMethod())) {
        JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use POST.");
        return true;
      }
      byte[] body = JsonBodies.read(request, MAX_ENROLMENT);
      if (body == null) {
        JsonBodies.error(
            response, callback, 413, "INVALID_ARGUMENT", "The request body is too large.");
        return true;
      }
      JsonRoutes.Parsed<Enrolment> json = JsonRoutes.strict(body, Enrolment.class);
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
      String from = Request.getRemoteAddr(request);
      if (attempts.locked(from, device)) {
        refuse(
            "an enrolment",
            request,
            response,
            callback,
            device,
            429,
            Hub.Refusals.TOO_MANY_ATTEMPTS,
            "Too many wrong codes for '" + device + "' from this address; wait a minute.");
        return true;
      }
      if (hub.registered(device) == null) {
        refuse(
            "an enrolment",
            request,
            response,
            callback,
            device,
            403,
            Hub.Refusals.NOT_REGISTERED,
            notRegistered(device));
        return true;
      }
      String credential = credentials.exchange(device, code);
      if (credential == null) {
        attempts.failed(from, device);
        refuse(
            "an enrolment",
            request,
            response,
            callback,
            device,
            401,
            Hub.Refusals.UNAUTHORIZED,
            "The code is wrong, used or expired: run 'cortex server enroll " + device + "' again.");
        return true;
      }
      log.info("device {} enrolled from {}", device, from);
      JsonBodies.send(response, callback, 200, Map.of("device", device, "credential", credential));
      return true;
    }
  }

  private void refuse(
      String what,
      Request request,
      Response response,
      Callback callback,
      String device,
      int status,
      String code,
      String message) {
    refusals.refused(what, Request.getRemoteAddr(request), device, code, message);
    JsonBodies.error(response, callback, status, code, message);
  }

  private static String notRegistered(String device) {
    return "Device '" + device + "' is not registered in machines.json.";
  }

  /** The body of {@code POST /enrol}; any other field is refused. */
  record Enrolment(String device, String code) {}
}
