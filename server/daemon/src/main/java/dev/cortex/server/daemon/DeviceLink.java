package dev.cortex.server.daemon;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's live link to one admitted device: its WebSocket, what it said of itself in its
 * hello, when it was last heard, and the commands it is running. Every pending command ends exactly
 * once: with the device's result, or failed when the device goes away, is evicted, or the hub shuts
 * down.
 */
final class DeviceLink {
  private static final Logger log = LoggerFactory.getLogger(DeviceLink.class);

  private final Session session;
  private final HubMessage.Hello hello;
  private final Instant connectedAt;
  private volatile Instant lastHeard;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  /** A command awaiting its result, and where its output goes meanwhile. */
  record Pending(CompletableFuture<HubMessage.Result> result, BiConsumer<String, String> output) {}

  DeviceLink(Session session, HubMessage.Hello hello, Instant now) {
    this.session = session;
    this.hello = hello;
    this.connectedAt = now;
    this.lastHeard = now;
  }

  String name() {
    return hello.device();
  }

  HubMessage.Hello hello() {
    return hello;
  }

  Instant connectedAt() {
    return connectedAt;
  }

  Instant lastHeard() {
    return lastHeard;
  }

  void heard(Instant now) {
    lastHeard = now;
  }

  int running() {
    return pending.size();
  }

  /** Sends a message; a failure to send is logged and shows as the connection closing. */
  void send(HubMessage message) {
    session.sendText(
        WireJson.write(message),
        Callback.from(
            () -> {},
            failure -> log.debug("sending to {} failed: {}", name(), failure.toString())));
  }

  /** Starts {@code command} and returns its future result. */
  CompletableFuture<HubMessage.Result> start(
      HubMessage.Command command, BiConsumer<String, String> output) {
    Pending entry = new Pending(new CompletableFuture<>(), output);
    pending.put(command.id(), entry);
    entry.result().whenComplete((r, e) -> pending.remove(command.id(), entry));
    send(command);
    return entry.result();
  }

  /** Routes output of a running command; output of unknown commands is dropped. */
  void output(HubMessage.Output output) {
    Pending entry = pending.get(output.id());
    if (entry != null) {
      try {
        entry.output().accept(output.stream(), output.data());
      } catch (RuntimeException e) {
        log.debug("output listener of {} failed: {}", output.id(), e.toString());
      }
    }
  }

  /** Completes a command with the device's result; a late or unknown result is dropped. */
  void result(HubMessage.Result result) {
    Pending entry = pending.get(result.id());
    if (entry != null) {
      entry.result().complete(result);
    }
  }

  /** Ends {@code id} on this side (e.g. the caller cancelled) and tells the device to stop it. */
  boolean cancel(String id, ErrorBody why) {
    Pending entry = pending.get(id);
    if (entry == null) {
      return false;
    }
    send(new HubMessage.Cancel(id, why.message()));
    entry.result().complete(new HubMessage.Result(id, null, why));
    return true;
  }

  /** Fails every pending command with {@code why}. */
  void failAll(ErrorBody why) {
    for (Map.Entry<String, Pending> entry : List.copyOf(pending.entrySet())) {
      entry.getValue().result().complete(new HubMessage.Result(entry.getKey(), null, why));
    }
  }

  /** Closes the WebSocket with a protocol close code. */
  void close(int code, String reason) {
    session.close(code, reason, Callback.NOOP);
  }

  boolean isOpen() {
    return session.isOpen();
  }
}
