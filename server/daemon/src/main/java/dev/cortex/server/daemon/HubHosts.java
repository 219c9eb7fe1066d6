package dev.cortex.server.daemon;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names devices may address the hub by, checked against each request's {@code Host} header.
 * Devices are no browsers, and every request from a browser's page is refused for its {@code
 * Origin} before this check ({@link HubGate}), so the port is never compared (a tunnel or a port
 * forward picks its own) and the names are only as narrow as the settings make them:
 *
 * <ul>
 *   <li>{@code [server] hub_hostnames} set: those names and the loopback names;
 *   <li>else a hub listening on loopback: the loopback names (and the address it listens on);
 *   <li>else any name: a VPN's, a certificate's, an SSH alias.
 * </ul>
 */
final class HubHosts {
  private static final Pattern NAME =
      Pattern.compile(
          "(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*");
  private static final Pattern IPV6 = Pattern.compile("[0-9a-f:.]{2,45}");
  private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1");

  /** The names allowed, or null for any. */
  private final Set<String> names;

  private final List<String> hostnames;

  private HubHosts(Set<String> names, List<String> hostnames) {
    this.names = names;
    this.hostnames = hostnames;
  }

  /** The policy of a hub listening on {@code bind} with {@code hub_hostnames} (maybe empty). */
  static HubHosts of(String bind, List<String> hostnames) {
    boolean loopback = dev.cortex.http.HttpHost.isLoopback(bind);
    if (hostnames.isEmpty() && !loopback) {
      return new HubHosts(null, hostnames);
    }
    Set<String> names = new LinkedHashSet<>(LOOPBACK);
    names.addAll(hostnames);
    if (loopback) {
      String own = hostName(bind);
      if (own != null) {
        names.add(own);
      }
    }
    return new HubHosts(Set.copyOf(names), List.copyOf(hostnames));
  }

  /**
   * Why a request saying {@code Host: host} is refused, in a sentence for the device, or null when
   * the name is allowed.
   */
  String refusal(String host) {
    String name = host == null ? null : nameOf(host);
    if (names == null && name != null) {
      return null;
    }
    if (name != null && names.contains(name)) {
      return null;
    }
    String given = name == null ? "a Host header it cannot read" : "'" + name + "'";
    if (!hostnames.isEmpty()) {
      return "The hub answers to "
          + String.join(", ", hostnames)
          + " and the loopback names ([server] hub_hostnames), not to "
          + given
          + ".";
    }
    return "The hub listens on loopback and answers to loopback names only, not to "
        + given
        + ": connect to ws://127.0.0.1 (through an SSH tunnel from another machine), or set"
        + " [server] hub_bind and hub_hostnames.";
  }

  /**
   * The name in a {@code Host} header, without its port, brackets or trailing dot, lower case; null
   * when it is none.
   */
  static String nameOf(String host) {
    String text = host.strip();
    if (text.startsWith("[")) {
      int end = text.indexOf(']');
      if (end < 0 || !(end == text.length() - 1 || text.charAt(end + 1) == ':')) {
        return null;
      }
      return hostName(text.substring(1, end));
    }
    int colon = text.indexOf(':');
    if (colon >= 0 && text.indexOf(':', colon + 1) < 0) {
      text = text.substring(0, colon);
    }
    return hostName(text);
  }

  /**
   * {@code text} as a host name or an IP address (an IPv6 one with or without brackets), lower case
   * and without a trailing dot; null when it is neither (it has a scheme, a port, a path).
   */
  static String hostName(String text) {
    String name = text.strip().toLowerCase(Locale.ROOT);
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    if (name.endsWith(".")) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.contains(":")) {
      return IPV6.matcher(name).matches() ? name : null;
    }
    return NAME.matcher(name).matches() ? name : null;
  }
}
