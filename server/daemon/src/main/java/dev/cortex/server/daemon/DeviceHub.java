package dev.cortex.server.daemon;

import dev.cortex.base.Deadline;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The devices connected to the hub and the commands they run. A device is admitted once its hello
 * names a registered device that is not already connected, on the platform its entry declares (if
 * it declares one); it is evicted after {@link Hub#SILENCE_LIMIT} without a message. Commands go to
 * a device by name and end with its result, or fail at once when the device goes away.
 */
final class DeviceHub {
  private static final Logger log = LoggerFactory.getLogger(DeviceHub.class);

  private final Registry registry;
  private final Clock clock;
  private final DeviceSettings settings;
  private final Map<String, DeviceLink> connected = new ConcurrentHashMap<>();
  private final Map<String, DeviceLink> byCommand = new ConcurrentHashMap<>();
  private final Map<String, HubMessage.Hello> hellos = new ConcurrentHashMap<>();
  private volatile SignalSink signals =
      (device, file) ->
          new HubMessage.SignalAck(
              file.file(),
              null,
              new ErrorBody(Codes.UNAVAILABLE, "The agent server takes no signals yet."));
  private volatile boolean stopping;

  /** The registry of devices, as the hub reads it. */
  @FunctionalInterface
  interface Registry {
    /** The registry in force. */
    Machines current();

    /** The enabled device {@code name}, or null; a registry kept on file may look again first. */
    default Machines.Machine find(String name) {
      return current().get(name);
    }
  }

  /** Takes the signals devices send from their spools. */
  @FunctionalInterface
  interface SignalSink {
    HubMessage.SignalAck take(String device, HubMessage.SignalFile file);
  }

  DeviceHub(Registry registry, Clock clock, DeviceSettings settings) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  Instant now() {
    return clock.instant();
  }

  /** The clock the hub keeps time on: silences, and the deadlines of commands. */
  Clock clock() {
    return clock;
  }

  Machines machines() {
    return registry.current();
  }

  /** The enabled device {@code name} of the registry, or null (after a look at a changed file). */
  Machines.Machine registered(String name) {
    return registry.find(name);
  }

  /** Why a hello is not admitted: the close code and reason, or null when it is. */
  record Refusal(int code, String reason) {}

  /** Admits a device after its hello, or says why not. */
  synchronized Refusal admit(DeviceLink link) {
    if (stopping) {
      return new Refusal(1001, "the agent server is shutting down");
    }
    String name = link.name();
    Machines.Machine machine = registry.find(name);
    if (machine == null) {
      return new Refusal(Hub.CLOSE_NOT_REGISTERED, "device '" + name + "' is not in machines.json");
    }
    String reported = link.hello().platform();
    if (machine.platform() != null && !machine.platform().equals(reported)) {
      // The remote tools tell agents the registered platform: a device on another one would
      // mislead them (cmd.exe, no background jobs).
      return new Refusal(
          Hub.CLOSE_PLATFORM_MISMATCH,
          "machines.json says '"
              + name
              + "' is "
              + machine.platform()
              + ", but it reports "
              + (reported != null && reported.matches("[A-Za-z0-9._-]{1,32}")
                  ? reported
                  : "another platform"));
    }
    DeviceLink existing = connected.get(name);
    if (existing != null && existing.isOpen()) {
      return new Refusal(Hub.CLOSE_DUPLICATE_DEVICE, "device '" + name + "' is already connected");
    }
    if (connected.size() >= settings.maxDevices()) {
      return new Refusal(Hub.CLOSE_HUB_FULL, "the hub holds " + settings.maxDevices() + " devices");
    }
    connected.put(name, link);
    hellos.put(name, link.hello());
    log.info(
        "device {} connected ({} {}, cortex {})",
        name,
        link.hello().platform(),
        link.hello().arch(),
        link.hello().version());
    return null;
  }

  /** Forgets a connection that closed, failing its commands at once. */
  void left(DeviceLink link, int code, String reason) {
    boolean removed = connected.remove(link.name(), link);
    link.failAll(
        new ErrorBody(
            Codes.DEVICE_DISCONNECTED,
            "Device '"
                + link.name()
                + "' disconnected while running the command ("
                + describe(code, reason)
                + "); it may or may not have completed."));
    if (removed) {
      log.info("device {} disconnected: {}", link.name(), describe(code, reason));
    }
  }

  private static String describe(int code, String reason) {
    return reason == null || reason.isBlank() ? "close code " + code : reason;
  }

  /** The link to {@code device}, if it is online. */
  DeviceLink link(String device) {
    DeviceLink link = connected.get(device);
    return link != null && link.isOpen() ? link : null;
  }

  /** The online devices, by name. */
  List<DeviceLink> online() {
    return connected.values().stream()
        .filter(DeviceLink::isOpen)
        .sorted(java.util.Comparator.comparing(DeviceLink::name))
        .toList();
  }

  /**
   * Runs a command on a device and waits for its result until {@code deadline}.
   *
   * @param output receives (stream, data) chunks while it runs
   */
  HubMessage.Result run(
      String commandId,
      String device,
      String action,
      JsonNode params,
      Deadline deadline,
      BiConsumer<String, String> output) {
    if (stopping) {
      return failed(commandId, Codes.UNAVAILABLE, "The agent server is shutting down.");
    }
    DeviceLink link = link(device);
    if (link == null) {
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
    if (byCommand.putIfAbsent(commandId, link) != null) {
      return failed(commandId, Codes.INVALID_ARGUMENT, "Command id '" + commandId + "' is in use.");
    }
    try {
      // The device gets what is left of the deadline (at least a millisecond: it refuses none).
      long timeoutMillis = Math.max(1, deadline.remainingMillis());
      return link.run(
          new HubMessage.Command(commandId, action, params, timeoutMillis), deadline, output);
    } finally {
      byCommand.remove(commandId, link);
    }
  }

  /** Stops a running command; false when no such command is running. */
  boolean cancel(String commandId, String reason) {
    DeviceLink link = byCommand.get(commandId);
    return link != null
        && link.cancel(
            commandId,
            new ErrorBody(Codes.CANCELLED, "The command was cancelled: " + reason + "."));
  }

  /** The sentence for a device that is not online, naming the devices that are. */
  String offline(String device) {
    List<String> online = online().stream().map(DeviceLink::name).toList();
    String onlineText = online.isEmpty() ? "none" : String.join(", ", online);
    if (registry.current().get(device) == null) {
      List<String> registered =
          registry.current().enabled().stream().map(Machines.Machine::name).toList();
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
    for (DeviceLink link : new ArrayList<>(connected.values())) {
      if (link.lastHeard().isBefore(limit)) {
        log.warn("device {} was silent for over {} s: evicted", link.name(), 15);
        link.close(Hub.CLOSE_HEARTBEAT_TIMEOUT, "heartbeat timeout");
        left(link, Hub.CLOSE_HEARTBEAT_TIMEOUT, "heartbeat timeout");
      }
    }
  }

  /** Drops devices whose credential was revoked or that left the registry. */
  void drop(String device, String reason) {
    DeviceLink link = connected.get(device);
    if (link != null) {
      link.close(Hub.CLOSE_REVOKED, reason);
      left(link, Hub.CLOSE_REVOKED, reason);
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
    Machines machines = registry.current();
    hellos.keySet().removeIf(name -> machines.get(name) == null);
    for (String name : List.copyOf(connected.keySet())) {
      if (machines.get(name) == null) {
        DeviceLink link = connected.get(name);
        if (link != null) {
          link.close(Hub.CLOSE_NOT_REGISTERED, "removed from machines.json");
          left(link, Hub.CLOSE_NOT_REGISTERED, "removed from machines.json");
        }
      }
    }
  }

  /** Fails every pending command and closes every connection: the server is stopping. */
  void shutdown() {
    stopping = true;
    for (DeviceLink link : new ArrayList<>(connected.values())) {
      link.failAll(
          new ErrorBody(
              Codes.UNAVAILABLE,
              "The agent server is shutting down; the command on '"
                  + link.name()
                  + "' may have run in part."));
      link.close(1001, "the agent server is shutting down");
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
