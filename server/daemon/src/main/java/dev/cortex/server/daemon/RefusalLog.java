package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.Machines;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's account of what the hub refused, at warning level once per cause, so that a device
 * retrying in a loop, or a peer that names a new device or Host on every try, does not flood the
 * log; repeats go to the debug level. A cause is the refusal's code and the peer's address; under
 * one cause, the first {@value #DEVICES_PER_CAUSE} devices named are warned of each. The first
 * refusal of a cause is logged with its reason. At most {@value #MAX_CAUSES} causes are remembered
 * in an hour ({@link #WINDOW}): past that, new ones go to the debug level (one warning says so)
 * until the window ends and the account starts again. Lines name the peer, the device and the
 * reason, never a secret: no credential, code, token or query string.
 */
final class RefusalLog {
  private static final Logger log = LoggerFactory.getLogger("dev.cortex.server.daemon.Hub");

  static final int MAX_CAUSES = 1_000;
  static final int DEVICES_PER_CAUSE = 3;

  /** How long the account runs before it starts again. */
  static final Duration WINDOW = Duration.ofHours(1);

  private final Clock clock;
  private final Map<String, Set<String>> devicesByCause = new HashMap<>();
  private Instant windowStart;
  private boolean warnedFull;

  RefusalLog(Clock clock) {
    this.clock = clock;
  }

  /**
   * Logs a refusal.
   *
   * @param what what was refused, e.g. {@code the connection} or {@code an enrolment}
   * @param device the device the request named (checked here before it is written), or null
   * @param code the refusal's stable code
   * @param reason the sentence the peer was given
   * @return whether it was logged at warning level
   */
  boolean refused(String what, String peer, String device, String code, String reason) {
    String named = device != null && Machines.NAME.matcher(device).matches() ? device : null;
    boolean first = first(code + "|" + peer, named);
    String line = "hub refused {} from {}{}: {} ({}){}";
    Object[] args = {
      what,
      peer,
      named == null ? "" : " for device " + named,
      reason,
      code,
      first ? "; repeats are logged at debug level" : ""
    };
    if (first) {
      log.warn(line, args);
    } else {
      log.debug(line, args);
    }
    return first;
  }

  /** Whether this cause, or this device under it, is new to the account (and now in it). */
  private synchronized boolean first(String cause, String device) {
    Instant now = clock.instant();
    if (windowStart == null || !now.isBefore(windowStart.plus(WINDOW))) {
      devicesByCause.clear();
      windowStart = now;
      warnedFull = false;
    }
    Set<String> devices = devicesByCause.get(cause);
    if (devices == null) {
      if (devicesByCause.size() >= MAX_CAUSES) {
        full();
        return false;
      }
      devices = new HashSet<>();
      devices.add(String.valueOf(device));
      devicesByCause.put(cause, devices);
      return true;
    }
    return devices.size() < DEVICES_PER_CAUSE && devices.add(String.valueOf(device));
  }

  private void full() {
    if (!warnedFull) {
      warnedFull = true;
      log.warn(
          "hub refused requests of more than {} causes within the hour; new ones are logged at"
              + " debug level until {}",
          MAX_CAUSES,
          windowStart.plus(WINDOW));
    }
  }
}
