package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.Machines;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's account of what the hub refused: each refusal once per cause (its code, the device
 * named and the reason given) and peer address, at warning level, so that a device retrying in a
 * loop does not flood the log; repeats go to the debug level. Lines name the peer, the device and
 * the reason, never a secret: no credential, code, token or query string.
 */
final class RefusalLog {
  private static final Logger log = LoggerFactory.getLogger("dev.cortex.server.daemon.Hub");
  private static final int MAX_REMEMBERED = 10_000;

  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  /**
   * Logs a refusal.
   *
   * @param what what was refused, e.g. {@code the connection} or {@code an enrolment}
   * @param device the device the request named (checked here before it is written), or null
   * @param code the refusal's stable code
   * @param reason the sentence the peer was given
   */
  void refused(String what, String peer, String device, String code, String reason) {
    String named = device != null && Machines.NAME.matcher(device).matches() ? device : null;
    String key = code + "|" + peer + "|" + named + "|" + reason;
    if (logged.size() >= MAX_REMEMBERED) {
      logged.clear();
    }
    boolean first = logged.add(key);
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
  }
}
