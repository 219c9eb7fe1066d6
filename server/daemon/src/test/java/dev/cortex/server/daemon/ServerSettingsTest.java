package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerSettingsTest {
  @TempDir Path config;

  CortexToml load(String toml, Map<String, String> env) throws Exception {
    if (toml != null) {
      Files.writeString(config.resolve("cortex.toml"), toml);
    }
    return CortexToml.load(config, env, List.of(ServerSettings.TABLE, DeviceSettings.TABLE));
  }

  @Test
  void load_nothingSet_isTheSeedsPortsOnLoopback() throws Exception {
    CortexToml settings = load(null, Map.of());

    assertThat(settings.get(ServerSettings.TABLE)).isEqualTo(ServerSettings.DEFAULTS);
    assertThat(settings.get(ServerSettings.TABLE).webhookPort()).isEqualTo(3001);
    assertThat(settings.get(ServerSettings.TABLE).hubPort()).isEqualTo(3002);
    assertThat(settings.get(DeviceSettings.TABLE)).isEqualTo(DeviceSettings.DEFAULTS);
  }

  @Test
  void load_fileThenVariables() throws Exception {
    CortexToml settings =
        load(
            "[server]\nhub_port = 4002\nhub_bind = \"0.0.0.0\"\nshutdown_grace = \"3s\"\n"
                + "[devices]\nenrolment_valid_for = \"1h\"\nmax_devices = 5\n",
            Map.of("WEBHOOK_PORT", "4001", "CORTEX_CLIENT_PORT", "5002"));

    ServerSettings server = settings.get(ServerSettings.TABLE);
    assertThat(server.webhookPort()).isEqualTo(4001);
    assertThat(server.hubPort()).as("the variable wins").isEqualTo(5002);
    assertThat(server.hubBind()).isEqualTo("0.0.0.0");
    assertThat(server.shutdownGrace()).isEqualTo(Duration.ofSeconds(3));
    assertThat(settings.get(DeviceSettings.TABLE).enrolmentValidFor())
        .isEqualTo(Duration.ofHours(1));
    assertThat(settings.get(DeviceSettings.TABLE).maxDevices()).isEqualTo(5);
  }

  @Test
  void load_hubHostnames_fromTheFileOrTheVariable_lowerCase() throws Exception {
    CortexToml file =
        load("[server]\nhub_hostnames = [\"GPU-Server\", \"gpu-server.vpn.\"]\n", Map.of());
    CortexToml variable = load(null, Map.of("CORTEX_HUB_HOSTNAMES", "gpu-server, 192.0.2.2"));

    assertThat(file.get(ServerSettings.TABLE).hubHostnames())
        .containsExactly("gpu-server", "gpu-server.vpn");
    assertThat(variable.get(ServerSettings.TABLE).hubHostnames())
        .containsExactly("gpu-server", "192.0.2.2");
    assertThat(ServerSettings.DEFAULTS.hubHostnames()).isEmpty();
  }

  @Test
  void load_badHubHostnames_sayWhatANameIs() throws Exception {
    assertThatThrownBy(
            () -> load("[server]\nhub_hostnames = [\"wss://gpu-server:3002\"]\n", Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[server] hub_hostnames")
        .hasMessageContaining("'wss://gpu-server:3002' is not a host name")
        .hasMessageContaining("without a scheme, port or path");
    assertThatThrownBy(() -> load("[server]\nhub_hostnames = \"gpu-server\"\n", Map.of()))
        .hasMessageContaining("[server] hub_hostnames: expected a list of strings");
    assertThatThrownBy(() -> load("[server]\nhub_hostnames = []\n", Map.of()))
        .hasMessageContaining("expected a list of non-empty strings");
    assertThatThrownBy(() -> load(null, Map.of("CORTEX_HUB_HOSTNAMES", "a,,b")))
        .hasMessageContaining("CORTEX_HUB_HOSTNAMES");
  }

  @Test
  void hubUrl_schemeFromTls_hostFromTheNamesOrTheBind() {
    ServerSettings plain = ServerSettings.DEFAULTS;
    ServerSettings named =
        new ServerSettings(
            3001,
            "127.0.0.1",
            3002,
            "0.0.0.0",
            List.of("gpu-server.vpn", "gpu-server"),
            Path.of("hub.p12"),
            ServerSettings.DEFAULT_PASSWORD_ENV,
            Duration.ofSeconds(10));
    ServerSettings v6 =
        new ServerSettings(3001, "127.0.0.1", 3002, "::1", null, "X", Duration.ofSeconds(1));

    assertThat(plain.hubUrl(41234)).isEqualTo("ws://127.0.0.1:41234");
    assertThat(named.hubUrl(3002)).isEqualTo("wss://gpu-server.vpn:3002");
    assertThat(v6.hubUrl(3002)).isEqualTo("ws://[::1]:3002");
  }

  @Test
  void load_badValues_nameTheirSource() throws Exception {
    assertThatThrownBy(() -> load(null, Map.of("WEBHOOK_PORT", "70000")))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("WEBHOOK_PORT")
        .hasMessageContaining("0 to 65535");
    assertThatThrownBy(() -> load("[server]\nwebhook_bind = \"0.0.0.0\"\n", Map.of()))
        .hasMessageContaining("[server] webhook_bind")
        .hasMessageContaining("loopback");
    assertThatThrownBy(() -> load("[server]\nhub_port = \"3002\"\n", Map.of()))
        .hasMessageContaining("[server] hub_port: expected a whole number");
    assertThatThrownBy(() -> load("[devices]\nmax_devices = 0\n", Map.of()))
        .hasMessageContaining("[devices] max_devices");
    assertThatThrownBy(() -> load("[devices]\nmax_device = 3\n", Map.of()))
        .hasMessageContaining("unknown key [devices] max_device")
        .hasMessageContaining("max_devices");
  }
}
