package dev.cortex.server.daemon;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's listener on one device's WebSocket at the hub's endpoint: it admits the device, then
 * hands each message to the device's {@link DeviceLink}. The first message must be a hello that
 * names the device the upgrade authenticated (when it named one) and speaks protocol v1; after it,
 * heartbeats are echoed and output and results go to the commands they belong to.
 *
 * <p>Public because Jetty calls a listener's methods through method handles, which need a public
 * class; nothing outside the package uses it.
 */
public final class DeviceSocketListener implements Session.Listener.AutoDemanding {
  private static final Logger log = LoggerFactory.getLogger(DeviceSocketListener.class);

  private final DeviceHub hub;
  private final String authenticated;
  private final String serverVersion;
  private final RefusalLog refusals;
  private final String peer;
  private final Consumer<DeviceSocketListener> ended;
  private volatile String named;
  private volatile Session session;
  private volatile DeviceLink link;
  private volatile boolean warnedMalformed;

  /**
   * @param authenticated the device the upgrade named (its credential is that device's, or the
   *     shared token), or null when it named none
   * @param refusals where a refused hello is logged
   * @param peer the device's address, for the log
   * @param ended told (with this listener) when the socket closes or fails
   */
  DeviceSocketListener(
      DeviceHub hub,
      String authenticated,
      String serverVersion,
      RefusalLog refusals,
      String peer,
      Consumer<DeviceSocketListener> ended) {
    this.hub = hub;
    this.authenticated = authenticated;
    this.serverVersion = serverVersion;
    this.refusals = refusals;
    this.peer = peer;
    this.ended = ended;
  }

  @Override
  public void onWebSocketOpen(Session opened) {
    this.session = opened;
  }

  @Override
  public void onWebSocketText(String text) {
    try {
      receive(text);
    } catch (RuntimeException e) {
      // Thrown out of here, it would close the connection with the exception's text (1011): the
      // message is dropped instead, and the connection and its commands stay.
      log.warn("a message from {} could not be handled and was dropped", describe(), e);
    }
  }

  private void receive(String text) {
    DeviceLink live = link;
    HubMessage message;
    try {
      message = WireJson.read(text);
    } catch (IllegalArgumentException e) {
      if (live == null) {
        log.debug("unreadable first message from {}: {}", describe(), e.getMessage());
        close(Hub.CLOSE_BAD_HELLO, "the first message must be a hello");
      } else {
        live.heard(hub.now());
        dropped(live, e);
      }
      return;
    }
    if (live == null) {
      hello(message);
      return;
    }
    live.heard(hub.now());
    if (message instanceof HubMessage.Heartbeat heartbeat) {
      live.send(heartbeat);
    } else if (message instanceof HubMessage.Output output) {
      live.output(output);
    } else if (message instanceof HubMessage.Result result) {
      live.result(result);
    } else if (message instanceof HubMessage.SignalFile file) {
      live.send(hub.signal(live.name(), file));
    } else {
      log.debug("{} sent an unexpected {}", live.name(), message.type());
    }
  }

  /**
   * Drops a message the hub cannot read: a later version's type quietly, a malformed one with a
   * warning the first time on this connection.
   */
  private void dropped(DeviceLink live, IllegalArgumentException why) {
    if (why instanceof WireJson.UnknownType || warnedMalformed) {
      log.debug("{} sent a message that was dropped: {}", live.name(), why.getMessage());
      return;
    }
    warnedMalformed = true;
    log.warn(
        "{} sent a malformed message, dropped ({}); later ones on this connection are logged at"
            + " debug level",
        live.name(),
        why.getMessage());
  }

  private void hello(HubMessage message) {
    if (!(message instanceof HubMessage.Hello hello)) {
      close(Hub.CLOSE_BAD_HELLO, "the first message must be a hello");
      return;
    }
    named = hello.device();
    if (hello.device() == null || hello.device().isBlank()) {
      close(Hub.CLOSE_MISSING_NAME, "the hello names no device");
      return;
    }
    if (!Machines.NAME.matcher(hello.device()).matches()) {
      close(Hub.CLOSE_BAD_HELLO, "the hello's device is not a device name");
      return;
    }
    if (authenticated != null && !authenticated.equals(hello.device())) {
      close(Hub.CLOSE_BAD_HELLO, "the hello names another device than the upgrade");
      return;
    }
    if (hello.protocol() != Hub.VERSION) {
      close(
          Hub.CLOSE_PROTOCOL_VERSION,
          "this hub speaks protocol " + Hub.VERSION + ", the device " + hello.protocol());
      return;
    }
    DeviceLink admitted =
        new DeviceLink(new JettySocket(session, hello.device()), hello, hub.now());
    DeviceHub.Refusal refusal = hub.admit(admitted);
    if (refusal != null) {
      close(refusal.code(), refusal.reason());
      return;
    }
    link = admitted;
    admitted.send(
        new HubMessage.Welcome(Hub.VERSION, serverVersion, (int) Hub.HEARTBEAT.toSeconds()));
  }

  /** Refuses the connection before its device is admitted: logged, then closed with the code. */
  private void close(int code, String reason) {
    refusals.refused(
        "the hello",
        peer,
        authenticated != null ? authenticated : named,
        Integer.toString(code),
        reason);
    session.close(code, reason, Callback.NOOP);
  }

  private String describe() {
    DeviceLink live = link;
    return live != null ? live.name() : authenticated != null ? authenticated : "a device";
  }

  @Override
  public void onWebSocketClose(int code, String reason) {
    ended.accept(this);
    DeviceLink live = link;
    if (live != null) {
      hub.left(live, code, reason);
    }
  }

  @Override
  public void onWebSocketError(Throwable cause) {
    ended.accept(this);
    log.debug("WebSocket error of {}: {}", describe(), cause.toString());
  }

  /** Whether the hello has come; connections that never send one are closed by the sweeper. */
  boolean greeted() {
    return link != null;
  }

  /**
   * Closes the socket for want of a hello; false while the socket is not open yet (its upgrade was
   * answered, its open not yet seen), so that the next sweep tries again.
   */
  boolean closeUngreeted() {
    if (session == null) {
      return false;
    }
    if (link == null && session.isOpen()) {
      close(Hub.CLOSE_BAD_HELLO, "no hello within 10 s");
    }
    return true;
  }

  /** A device's Jetty WebSocket as its link sees it. */
  private record JettySocket(Session session, String device) implements DeviceLink.Socket {
    @Override
    public void send(String text) {
      session.sendText(
          text,
          Callback.from(
              () -> {},
              failure -> log.debug("sending to {} failed: {}", device, failure.toString())));
    }

    @Override
    public void close(int code, String reason) {
      session.close(code, reason, Callback.NOOP);
    }

    @Override
    public boolean isOpen() {
      return session.isOpen();
    }
  }
}
