package dev.cortex.device;

import dev.cortex.base.HopTrace;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device agent's link to the hub over one WebSocket: says hello, answers heartbeats, hands
 * commands to the runner, sends the spool's signals, and reports how the connection ended. The
 * agent makes a new one for each connection it opens.
 *
 * <p>Public because Jetty calls a listener's methods through method handles, which need a public
 * class; nothing outside the package uses it.
 */
public final class HubLink implements Session.Listener.AutoDemanding {
  private static final Logger log = LoggerFactory.getLogger(HubLink.class);

  /** How a connection ended: the close code and reason, and whether the hub ever welcomed it. */
  record Ending(int code, String reason, boolean welcomed) {}

  private final HubMessage.Hello hello;
  private final CommandRunner runner;
  private final DeviceSpool spool;
  private final Clock clock;
  private final CompletableFuture<Ending> ended = new CompletableFuture<>();
  private volatile Session session;
  private volatile boolean welcomed;
  private volatile Instant lastHeard;

  HubLink(HubMessage.Hello hello, CommandRunner runner, DeviceSpool spool, Clock clock) {
    this.hello = hello;
    this.runner = runner;
    this.spool = spool;
    this.clock = clock;
    this.lastHeard = clock.instant();
  }

  CompletableFuture<Ending> ended() {
    return ended;
  }

  boolean welcomed() {
    return welcomed;
  }

  Instant lastHeard() {
    return lastHeard;
  }

  @Override
  public void onWebSocketOpen(Session opened) {
    this.session = opened;
    lastHeard = clock.instant();
    send(hello);
  }

  @Override
  public void onWebSocketText(String text) {
    try {
      receive(text);
    } catch (RuntimeException e) {
      // Thrown out of here, it would close the connection: the message is dropped instead.
      log.warn("a message from the hub could not be handled and was dropped", e);
    }
  }

  private void receive(String text) {
    lastHeard = clock.instant();
    HubMessage message;
    try {
      message = WireJson.read(text);
    } catch (IllegalArgumentException e) {
      log.debug("unreadable message from the hub: {}", e.getMessage());
      return;
    }
    if (message instanceof HubMessage.Welcome welcome) {
      welcomed = true;
      log.info("connected to the hub as {} (server {})", hello.device(), welcome.serverVersion());
      spool.welcomed(this::send);
    } else if (message instanceof HubMessage.Command command) {
      HopTrace.mark(command.id(), "device.received");
      runner.submit(command, this::send);
    } else if (message instanceof HubMessage.Cancel cancel) {
      runner.cancel(cancel.id());
    } else if (message instanceof HubMessage.SignalAck ack) {
      spool.answered(ack);
    }
  }

  /** Sends a message if the connection is open; output of a closed connection is dropped. */
  void send(HubMessage message) {
    Session live = session;
    if (live != null && live.isOpen()) {
      live.sendText(
          WireJson.write(message),
          Callback.from(() -> {}, failure -> log.debug("send failed: {}", failure.toString())));
    }
  }

  /** Sends the spool's waiting signals, once welcomed. */
  void flushSpool() {
    if (welcomed) {
      spool.flush(this::send);
    }
  }

  void heartbeat() {
    send(new HubMessage.Heartbeat(clock.millis()));
  }

  /** Closes the connection, e.g. because the hub went silent. */
  void close(int code, String reason) {
    Session live = session;
    if (live != null) {
      live.close(code, reason, Callback.NOOP);
    } else {
      ended.complete(new Ending(code, reason, false));
    }
  }

  @Override
  public void onWebSocketClose(int code, String reason) {
    runner.cancelAll();
    ended.complete(new Ending(code, reason, welcomed));
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    log.debug("WebSocket error: {}", cause.toString());
    ended.complete(new Ending(1006, cause.getMessage(), welcomed));
  }

  static String describe(int code) {
    return switch (code) {
      case Hub.CLOSE_MISSING_NAME -> "the hello named no device";
      case Hub.CLOSE_DUPLICATE_DEVICE -> "a device of this name is already connected";
      case Hub.CLOSE_HEARTBEAT_TIMEOUT -> "the hub heard nothing for 15 s";
      case Hub.CLOSE_PROTOCOL_VERSION -> "the hub speaks another protocol version";
      case Hub.CLOSE_REVOKED -> "the device's credential was revoked";
      case Hub.CLOSE_BAD_HELLO -> "the hub refused the hello";
      case Hub.CLOSE_NOT_REGISTERED -> "the device is not in the hub's machines.json";
      case Hub.CLOSE_HUB_FULL -> "the hub holds as many devices as it may";
      case Hub.CLOSE_PLATFORM_MISMATCH ->
          "the device reports another platform than its entry in machines.json";
      case 1001 -> "the hub is shutting down";
      default -> "close code " + code;
    };
  }
}
