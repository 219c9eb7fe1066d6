package dev.cortex.server.daemon;

import dev.cortex.base.Deadline;
import dev.cortex.base.HopTrace;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's live link to one admitted device: its WebSocket, what it said of itself in its
 * hello, when it was last heard, and the commands it is running. Every pending command ends exactly
 * once: with the device's result, at its deadline, or failed when the device goes away, is evicted,
 * or the hub shuts down.
 */
final class DeviceLink {
  private static final Logger log = LoggerFactory.getLogger(DeviceLink.class);

  /** How often a waiting command looks at its deadline's clock again. */
  private static final Duration LOOK_AGAIN = Duration.ofSeconds(1);

  private final Socket socket;
  private final HubMessage.Hello hello;
  private final Instant connectedAt;
  private volatile Instant lastHeard;
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();

  /** The WebSocket under a link: what the link needs of it. */
  interface Socket {
    /** Sends one text frame; a failure to send shows as the socket closing. */
    void send(String text);

    /** Closes the socket with a protocol close code. */
    void close(int code, String reason);

    boolean isOpen();
  }

  /** A command awaiting its result, and where its output goes meanwhile. */
  private record Pending(
      CompletableFuture<HubMessage.Result> result, BiConsumer<String, String> output) {}

  DeviceLink(Socket socket, HubMessage.Hello hello, Instant now) {
    this.socket = socket;
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

  /** How many commands sent to the device wait for their answers. */
  int pendingCount() {
    return pending.size();
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

  /** Sends a message. */
  void send(HubMessage message) {
    socket.send(WireJson.write(message));
  }

  /**
   * Sends {@code command} and waits for its result until {@code deadline}, when the device is told
   * to stop it and the result says so.
   *
   * @param output receives (stream, data) chunks while it runs
   */
  HubMessage.Result run(
      HubMessage.Command command, Deadline deadline, BiConsumer<String, String> output) {
    Pending entry = new Pending(new CompletableFuture<>(), output);
    pending.put(command.id(), entry);
    entry.result().whenComplete((r, e) -> pending.remove(command.id(), entry));
    send(command);
    HopTrace.mark(command.id(), "hub.sent");
    try {
      while (true) {
        try {
          return entry.result().get(untilNextLook(deadline), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          if (deadline.expired()) {
            return timedOut(command, entry);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancel(command.id(), new ErrorBody(Codes.CANCELLED, "interrupted"));
      return failed(command.id(), Codes.CANCELLED, "Interrupted while waiting for the device.");
    } catch (ExecutionException e) {
      return failed(command.id(), Codes.INTERNAL, "The command failed inside the hub.");
    }
  }

  /**
   * How long to wait before looking at the deadline again: what is left, or a second at most, so
   * that a clock moved forward (in tests) is noticed.
   */
  private static long untilNextLook(Deadline deadline) {
    return Math.min(deadline.remainingMillis(), LOOK_AGAIN.toMillis());
  }

  /** Tells the device to stop; the result that came first (a late one, or the failure) counts. */
  private HubMessage.Result timedOut(HubMessage.Command command, Pending entry) {
    long seconds = (command.timeoutMillis() + 999) / 1000;
    ErrorBody why =
        new ErrorBody(
            Codes.UNAVAILABLE,
            "Device '"
                + name()
                + "' gave no result within "
                + seconds
                + " s; the command was told to stop.");
    cancel(command.id(), why);
    return entry.result().getNow(new HubMessage.Result(command.id(), null, why));
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
      HopTrace.mark(result.id(), "hub.result");
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
    socket.close(code, reason);
  }

  boolean isOpen() {
    return socket.isOpen();
  }

  private static HubMessage.Result failed(String id, String code, String message) {
    return new HubMessage.Result(id, null, new ErrorBody(code, message));
  }
}
