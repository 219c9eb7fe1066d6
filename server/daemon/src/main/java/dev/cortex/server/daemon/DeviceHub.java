package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The devices connected to the hub and the commands they run. A device is admitted once its hello
 * names a registered device that is not already connected; it is evicted after {@link
 * Hub#SILENCE_LIMIT} without a message. Commands go to a device by name and end with its result, or
 * fail at once when the device goes away.
 */
final class DeviceHub {
  private static final Logger log = LoggerFactory.getLogger(DeviceHub.class);

  private final Supplier<Machines> registry;
  private final Clock clock;
  private final DeviceSettings settings;
  private final Map<String, DeviceConnection> connected = new ConcurrentHashMap<>();
  private final Map<String, DeviceConnection> byCommand = new ConcurrentHashMap<>();
  private final Map<String, HubMessage.Hello> hellos = new ConcurrentHashMap<>();
  private volatile SignalSink signals =
      (device, file) ->
          new HubMessage.SignalAck(
              file.file(),
              null,
              new ErrorBody(Codes.UNAVAILABLE, "The agent server takes no signals yet."));
  private volatile boolean stopping;

  /** Takes the signals devices send from their spools. */
  @FunctionalInterface
  interface SignalSink {
    HubMessage.SignalAck take(String device, HubMessage.SignalFile file);
  }

  DeviceHub(Supplier<Machines> registry, Clock clock, DeviceSettings settings) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  Instant now() {
    return clock.instant();
  }

  Machines machines() {
    return registry.get();
  }

  /** Why a hello is not admitted: the close code and reason, or null when it is. */
  record Refusal(int code, String reason) {}

  /** Admits a device after its hello, or says why not. */
  synchronized Refusal admit(DeviceConnection connection) {
    if (stopping) {
      return new Refusal(1001, "the agent server is shutting down");
    }
    String name = connection.name();
    if (registry.get().get(name) == null) {
      return new Refusal(Hub.CLOSE_NOT_REGISTERED, "device '" + name + "' is not in machines.json");
    }
    DeviceConnection existing = connected.get(name);
    if (existing != null && existing.isOpen()) {
      return new Refusal(Hub.CLOSE_DUPLICATE_DEVICE, "device '" + name + "' is already connected");
    }
    if (connected.size() >= settings.maxDevices()) {
      return new Refusal(Hub.CLOSE_HUB_FULL, "the hub holds " + settings.maxDevices() + " devices");
    }
    connected.put(name, connection);
    hellos.put(name, connection.hello());
    log.info(
        "device {} connected ({} {}, cortex {})",
        name,
        connection.hello().platform(),
        connection.hello().arch(),
        connection.hello().version());
    return null;
  }

  /** Forgets a connection that closed, failing its commands at once. */
  void left(DeviceConnection connection, int code, String reason) {
    boolean removed = connected.remove(connection.name(), connection);
    connection.failAll(
        new ErrorBody(
            Codes.DEVICE_DISCONNECTED,
            "Device '"
                + connection.name()
                + "' disconnected while running the command ("
                + describe(code, reason)
                + "); it may or may not have completed."));
    if (removed) {
      log.info("device {} disconnected: {}", connection.name(), describe(code, reason));
    }
  }

  private static String describe(int code, String reason) {
    return reason == null || reason.isBlank() ? "close code " + code : reason;
  }

  /** The connection of {@code device}, if it is online. */
  DeviceConnection connection(String device) {
    DeviceConnection connection = connected.get(device);
    return connection != null && connection.isOpen() ? connection : null;
  }

  /** The online devices, by name. */
  List<DeviceConnection> online() {
    return connected.values().stream()
        .filter(DeviceConnection::isOpen)
        .sorted(java.util.Comparator.comparing(DeviceConnection::name))
        .toList();
  }

  /**
   * Runs a command on a device and waits for its result.
   *
   * @param output receives (stream, data) chunks while it runs
   */
  HubMessage.Result run(
      String commandId,
      String device,
      String action,
      JsonNode params,
      Duration timeout,
      BiConsumer<String, String> output) {
    if (stopping) {
      return failed(commandId, Codes.UNAVAILABLE, "The agent server is shutting down.");
    }
    DeviceConnection connection = connection(device);
    if (connection == null) {
      return failed(commandId, Codes.DEVICE_OFFLINE, offline(device));
    }
    if (byCommand.size() >= settings.maxCommands()) {
      return failed(
          commandId,
          Codes.UNAVAILABLE,
          "The agent server is running "
              + settings.maxCommands()
              + " remote commands already; retry when some have finished.");
    }
    if (byCommand.putIfAbsent(commandId, connection) != null) {
      return failed(commandId, Codes.INVALID_ARGUMENT, "Command id '" + commandId + "' is in use.");
    }
    try {
      CompletableFuture<HubMessage.Result> result =
          connection.start(
              new HubMessage.Command(commandId, action, params, timeout.toMillis()), output);
      try {
        return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        ErrorBody why =
            new ErrorBody(
                Codes.UNAVAILABLE,
                "Device '"
                    + device
                    + "' gave no result within "
                    + timeout.toSeconds()
                    + " s; the command was told to stop.");
        connection.cancel(commandId, why);
        return new HubMessage.Result(commandId, null, why);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        connection.cancel(commandId, new ErrorBody(Codes.CANCELLED, "interrupted"));
        return failed(commandId, Codes.CANCELLED, "Interrupted while waiting for the device.");
      } catch (ExecutionException e) {
        return failed(commandId, Codes.INTERNAL, "The command failed inside the hub.");
      }
    } finally {
      byCommand.remove(commandId, connection);
    }
  }

  /** Stops a running command; false when no such command is running. */
  boolean cancel(String commandId, String reason) {
    DeviceConnection connection = byCommand.get(commandId);
    return connection != null
        && connection.cancel(
            commandId,
            new ErrorBody(Codes.CANCELLED, "The command was cancelled: " + reason + "."));
  }

  /** The sentence for a device that is not online, naming the devices that are. */
  String offline(String device) {
    List<String> online = online().stream().map(DeviceConnection::name).toList();
    String onlineText = online.isEmpty() ? "none" : String.join(", ", online);
    if (registry.get().get(device) == null) {
      List<String> registered =
          registry.get().enabled().stream().map(Machines.Machine::name).toList();
      return "No device named '"
          + device
          + "' is registered in machines.json (registered: "
          + (registered.isEmpty() ? "none" : String.join(", ", registered))
          + "). Devices online now: "
          + onlineText
          + ".";
    }
    return "Device '"
        + device
        + "' is not connected: start 'cortex client --name "
        + device
        + "' on it. Devices online now: "
        + onlineText
        + ".";
  }

  /** Closes connections silent for longer than the limit; called every second. */
  void evictSilent() {
    Instant limit = clock.instant().minus(Hub.SILENCE_LIMIT);
    for (DeviceConnection connection : new ArrayList<>(connected.values())) {
      if (connection.lastHeard().isBefore(limit)) {
        log.warn("device {} was silent for over {} s: evicted", connection.name(), 15);
        connection.close(Hub.CLOSE_HEARTBEAT_TIMEOUT, "heartbeat timeout");
        left(connection, Hub.CLOSE_HEARTBEAT_TIMEOUT, "heartbeat timeout");
      }
    }
  }

  /** Drops devices whose credential was revoked or that left the registry. */
  void drop(String device, String reason) {
    DeviceConnection connection = connected.get(device);
    if (connection != null) {
      connection.close(Hub.CLOSE_REVOKED, reason);
      left(connection, Hub.CLOSE_REVOKED, reason);
    }
  }

  /** Sets where devices' spooled signals go. */
  void signals(SignalSink sink) {
    this.signals = Objects.requireNonNull(sink, "sink");
  }

  /** A device's spooled signal, taken; the answer goes back to the device. */
  HubMessage.SignalAck signal(String device, HubMessage.SignalFile file) {
    if (stopping) {
      return new HubMessage.SignalAck(
          file.file(),
          null,
          new ErrorBody(Codes.UNAVAILABLE, "The agent server is shutting down; send it later."));
    }
    try {
      return signals.take(device, file);
    } catch (RuntimeException e) {
      log.warn("a signal from {} could not be taken", device, e);
      return new HubMessage.SignalAck(
          file.file(),
          null,
          new ErrorBody(Codes.UNAVAILABLE, "The agent server could not take the signal now."));
    }
  }

  /** The last hello of a device since the server started (it may be offline now), or null. */
  HubMessage.Hello lastHello(String device) {
    return hellos.get(device);
  }

  /** Drops connected devices that the registry no longer names (after a reload). */
  void reconcile() {
    Machines machines = registry.get();
    hellos.keySet().removeIf(name -> machines.get(name) == null);
    for (String name : List.copyOf(connected.keySet())) {
      if (machines.get(name) == null) {
        DeviceConnection connection = connected.get(name);
        if (connection != null) {
          connection.close(Hub.CLOSE_NOT_REGISTERED, "removed from machines.json");
          left(connection, Hub.CLOSE_NOT_REGISTERED, "removed from machines.json");
        }
      }
    }
  }

  /** Fails every pending command and closes every connection: the server is stopping. */
  void shutdown() {
    stopping = true;
    for (DeviceConnection connection : new ArrayList<>(connected.values())) {
      connection.failAll(
          new ErrorBody(
              Codes.UNAVAILABLE,
              "The agent server is shutting down; the command on '"
                  + connection.name()
                  + "' may have run in part."));
      connection.close(1001, "the agent server is shutting down");
    }
    connected.clear();
  }

  boolean stopping() {
    return stopping;
  }

  private static HubMessage.Result failed(String id, String code, String message) {
    return new HubMessage.Result(id, null, new ErrorBody(code, message));
  }
}
