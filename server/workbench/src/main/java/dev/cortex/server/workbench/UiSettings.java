package dev.cortex.server.workbench;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [ui]} table of {@code cortex.toml}: the web workbench's connector.
 *
 * <pre>
 * [ui]
 * enabled = true                 # false: no workbench port at all
 * port = 3004                    # CORTEX_UI_PORT; 0 = any free port
 * bind = "127.0.0.1"             # a non-loopback address needs the keystore (TLS)
 * keystore = "ui.p12"            # PKCS12, relative to the config directory
 * keystore_password_env = "CORTEX_UI_KEYSTORE_PASSWORD"
 * session_hours = 12             # how long a browser stays signed in
 * </pre>
 */
public record UiSettings(
    boolean enabled,
    int port,
    String bind,
    Path keystore,
    String keystorePasswordEnv,
    Duration session) {
  public static final int DEFAULT_PORT = 3004;
  public static final String DEFAULT_PASSWORD_ENV = "CORTEX_UI_KEYSTORE_PASSWORD";

  public static final UiSettings DEFAULTS =
      new UiSettings(
          true, DEFAULT_PORT, "127.0.0.1", null, DEFAULT_PASSWORD_ENV, Duration.ofHours(12));

  /** No workbench connector (an embedding that does not want one). */
  public static final UiSettings DISABLED =
      new UiSettings(
          false, DEFAULT_PORT, "127.0.0.1", null, DEFAULT_PASSWORD_ENV, Duration.ofHours(12));

  /** Whether the answers go over TLS. */
  public boolean tls() {
    return keystore != null;
  }

  /**
   * The UI's own origin once it listens on {@code boundPort}, e.g. {@code http://127.0.0.1:3004}.
   */
  public String url(int boundPort) {
    String host = bind;
    if (wildcard(bind)) {
      host = "127.0.0.1";
    } else if (bind.contains(":") && !bind.startsWith("[")) {
      host = "[" + bind + "]";
    }
    return (tls() ? "https" : "http") + "://" + host + ":" + boundPort;
  }

  private static boolean wildcard(String bind) {
    try {
      return InetAddress.getByName(bind).isAnyLocalAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public static final SettingsTable<UiSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "ui";
        }

        @Override
        public Set<String> keys() {
          return Set.of(
              "enabled", "port", "bind", "keystore", "keystore_password_env", "session_hours");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of("CORTEX_UI_PORT", "port");
        }

        @Override
        public UiSettings read(TableValues values) {
          boolean enabled = values.bool("enabled", DEFAULTS.enabled());
          int port = values.port("port", DEFAULTS.port());
          String bind = values.string("bind", DEFAULTS.bind());
          Path keystore = values.has("keystore") ? values.readableFile("keystore") : null;
          String passwordEnv =
              values.string("keystore_password_env", DEFAULTS.keystorePasswordEnv());
          long hours = values.integer("session_hours", 12, 1, 24 * 30);
          if (enabled && keystore == null && !loopback(bind)) {
            throw values.problem(
                "bind",
                "the workbench listens on "
                    + bind
                    + " without TLS; set [ui] keystore, or bind to 127.0.0.1");
          }
          return new UiSettings(
              enabled, port, bind, keystore, passwordEnv, Duration.ofHours(hours));
        }
      };

  static boolean loopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
