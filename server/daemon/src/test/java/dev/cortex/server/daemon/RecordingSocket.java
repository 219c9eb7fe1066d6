package dev.cortex.server.daemon;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.HubMessage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The WebSocket under a {@link DeviceLink} in tests of the hub: it keeps what the hub sends (read
 * back as hub messages, so that the tests see the wire's JSON) and how it was closed.
 */
final class RecordingSocket implements DeviceLink.Socket {
  private final List<HubMessage> sent = new CopyOnWriteArrayList<>();
  private volatile boolean open = true;
  private volatile int closeCode;
  private volatile String closeReason;

  @Override
  public void send(String text) {
    if (open) {
      sent.add(WireJson.read(text));
    }
  }

  @Override
  public void close(int code, String reason) {
    if (open) {
      open = false;
      closeCode = code;
      closeReason = reason;
    }
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  List<HubMessage> sent() {
    return List.copyOf(sent);
  }

  /** The messages sent of {@code type}. */
  <T extends HubMessage> List<T> sent(Class<T> type) {
    return sent.stream().filter(type::isInstance).map(type::cast).toList();
  }

  int closeCode() {
    return closeCode;
  }

  String closeReason() {
    return closeReason;
  }
}
