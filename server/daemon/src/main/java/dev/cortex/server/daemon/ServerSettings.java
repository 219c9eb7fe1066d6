package dev.cortex.server.daemon;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.webhook.Webhook;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code [server]} table of {@code cortex.toml}: where the agent server listens.
 *
 * <pre>
 * [server]
 * webhook_port = 3001            # WEBHOOK_PORT
 * webhook_bind = "127.0.0.1"     # a loopback address: anything else is refused
 * hub_port = 3002                # CORTEX_CLIENT_PORT
 * hub_bind = "127.0.0.1"         # CORTEX_CLIENT_BIND; e.g. "0.0.0.0" or a VPN address
 * hub_hostnames = ["gpu-server"] # CORTEX_HUB_HOSTNAMES; the only names the hub answers to
 * hub_keystore = "hub.p12"       # PKCS#12 key and certificate: the hub speaks wss (TLS)
 * hub_keystore_password_env = "CORTEX_HUB_KEYSTORE_PASSWORD"
 * shutdown_grace = "10s"         # how long requests in flight may finish on SIGTERM
 * </pre>
 *
 * @param hubHostnames the names (lower case) devices may address the hub by besides the loopback
 *     names, on any port; empty when not set (then any name, unless the hub listens on loopback)
 * @param hubKeystore null for plain ws
 */
public record ServerSettings(
    int webhookPort,
    String webhookBind,
    int hubPort,
    String hubBind,
    List<String> hubHostnames,
    Path hubKeystore,
    String hubKeystorePasswordEnv,
    Duration shutdownGrace) {

  public static final String DEFAULT_PASSWORD_ENV = "CORTEX_HUB_KEYSTORE_PASSWORD";

  public ServerSettings {
    Objects.requireNonNull(webhookBind, "webhookBind");
    Objects.requireNonNull(hubBind, "hubBind");
    hubHostnames = List.copyOf(hubHostnames);
    Objects.requireNonNull(hubKeystorePasswordEnv, "hubKeystorePasswordEnv");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
  }

  /** Settings without {@code hub_hostnames}. */
  public ServerSettings(
      int webhookPort,
      String webhookBind,
      int hubPort,
      String hubBind,
      Path hubKeystore,
      String hubKeystorePasswordEnv,
      Duration shutdownGrace) {
    this(
        webhookPort,
        webhookBind,
        hubPort,
        hubBind,
        List.of(),
        hubKeystore,
        hubKeystorePasswordEnv,
        shutdownGrace);
  }

  public static final ServerSettings DEFAULTS =
      new ServerSettings(
          Webhook.DEFAULT_PORT,
          "127.0.0.1",
          Hub.DEFAULT_PORT,
          "127.0.0.1",
          null,
          DEFAULT_PASSWORD_ENV,
          Duration.ofSeconds(10));

  /**
   * The URL devices connect to when the hub listens on {@code port}: {@code wss} with a keystore,
   * else {@code ws}; the first of {@code hub_hostnames}, else this machine's name when the hub
   * listens on every address, else the address it listens on.
   */
  public String hubUrl(int port) {
    String host;
    if (!hubHostnames.isEmpty()) {
      host = hubHostnames.get(0);
    } else if (wildcard(hubBind)) {
      host = localName();
    } else {
      host = hubBind.contains(":") && !hubBind.startsWith("[") ? "[" + hubBind + "]" : hubBind;
    }
    return (hubKeystore == null ? "ws" : "wss") + "://" + host + ":" + port;
  }

  private static boolean wildcard(String bind) {
    try {
      return InetAddress.getByName(bind).isAnyLocalAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String localName() {
    try {
      return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  public static final SettingsTable<ServerSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "server";
        }

        @Override
        public Set<String> keys() {
          return Set.of(
              "webhook_port",
              "webhook_bind",
              "hub_port",
              "hub_bind",
              "hub_hostnames",
              "hub_keystore",
              "hub_keystore_password_env",
              "shutdown_grace");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of(
              "WEBHOOK_PORT", "webhook_port",
              "CORTEX_CLIENT_PORT", "hub_port",
              "CORTEX_CLIENT_BIND", "hub_bind",
              "CORTEX_HUB_HOSTNAMES", "hub_hostnames",
              "CORTEX_HUB_KEYSTORE", "hub_keystore",
              "CORTEX_WEBHOOK_BIND", "webhook_bind");
        }

        @Override
        public ServerSettings read(TableValues values) {
          String bind = values.string("hub_bind", DEFAULTS.hubBind());
          if (values.has("hub_bind")) {
            address(values, "hub_bind", bind);
          }
          String webhookBind = values.string("webhook_bind", DEFAULTS.webhookBind());
          if (values.has("webhook_bind")
              && !address(values, "webhook_bind", webhookBind).isLoopbackAddress()) {
            throw values.problem(
                "webhook_bind",
                "the webhook must listen on a loopback address such as 127.0.0.1, not '"
                    + webhookBind
                    + "': MCP servers reach it on this machine only");
          }
          String passwordEnv = values.variableName("hub_keystore_password_env");
          return new ServerSettings(
              values.port("webhook_port", DEFAULTS.webhookPort()),
              webhookBind,
              values.port("hub_port", DEFAULTS.hubPort()),
              bind,
              hostnames(values),
              values.readableFile("hub_keystore"),
              passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv,
              values.duration("shutdown_grace", DEFAULTS.shutdownGrace()));
        }
      };

  private static InetAddress address(TableValues values, String key, String text) {
    try {
      return InetAddress.getByName(text);
    } catch (UnknownHostException e) {
      throw values.problem(key, "cannot resolve '" + text + "'");
    }
  }

  /** {@code hub_hostnames}: host names or IP addresses, without a scheme, port or path. */
  private static List<String> hostnames(TableValues values) {
    List<String> given = values.strings("hub_hostnames");
    if (given == null) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (String name : given) {
      String host = HubHosts.hostName(name);
      if (host == null) {
        throw values.problem(
            "hub_hostnames",
            "'"
                + name
                + "' is not a host name or an IP address; give names alone, without a scheme,"
                + " port or path, e.g. [\"gpu-server\", \"gpu-server.vpn\"]");
      }
      names.add(host);
    }
    return List.copyOf(names);
  }
}
