package dev.cortex.server.daemon;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.webhook.Webhook;
import java.nio.file.Path;
import java.util.Map;
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
 * hub_keystore = "hub.p12"       # PKCS#12 key and certificate: the hub speaks wss (TLS)
 * hub_keystore_password_env = "CORTEX_HUB_KEYSTORE_PASSWORD"
 * shutdown_grace = "10s"         # how long requests in flight may finish on SIGTERM
 * </pre>
 *
 * @param hubKeystore null for plain ws
 */
public record ServerSettings(
    int webhookPort,
    String webhookBind,
    int hubPort,
    String hubBind,
    Path hubKeystore,
    String hubKeystorePasswordEnv,
    java.time.Duration shutdownGrace) {

  public static final String DEFAULT_PASSWORD_ENV = "CORTEX_HUB_KEYSTORE_PASSWORD";

  private static java.net.InetAddress address(TableValues values, String key, String text) {
    try {
      return java.net.InetAddress.getByName(text);
    } catch (java.net.UnknownHostException e) {
      throw values.problem(key, "cannot resolve '" + text + "'");
    }
  }

  public static final ServerSettings DEFAULTS =
      new ServerSettings(
          Webhook.DEFAULT_PORT,
          "127.0.0.1",
          Hub.DEFAULT_PORT,
          "127.0.0.1",
          null,
          DEFAULT_PASSWORD_ENV,
          java.time.Duration.ofSeconds(10));

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
              values.readableFile("hub_keystore"),
              passwordEnv == null ? DEFAULT_PASSWORD_ENV : passwordEnv,
              values.duration("shutdown_grace", DEFAULTS.shutdownGrace()));
        }
      };
}
