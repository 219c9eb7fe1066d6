package dev.cortex.server.workbench;

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

/** The {@code [ui]} table and the origin it gives. */
class UiSettingsTest {
  @TempDir Path dir;

  UiSettings load(String toml, Map<String, String> env) throws Exception {
    Files.writeString(dir.resolve(CortexToml.FILE), toml);
    return CortexToml.load(dir, env, List.of(UiSettings.TABLE)).get(UiSettings.TABLE);
  }

  @Test
  void read_nothingSet_isTheDefaults_onLoopbackPort3004() throws Exception {
    UiSettings settings = load("", Map.of());
    assertThat(settings).isEqualTo(UiSettings.DEFAULTS);
    assertThat(settings.tls()).isFalse();
    assertThat(settings.url(3004)).isEqualTo("http://127.0.0.1:3004");
  }

  @Test
  void read_theDocumentedExample_isTheDefaults() throws Exception {
    assertThat(
            load(
                """
                [ui]
                enabled = true
                port = 3004
                bind = "127.0.0.1"
                keystore_password_env = "CORTEX_UI_KEYSTORE_PASSWORD"
                session_hours = 12
                """,
                Map.of()))
        .isEqualTo(UiSettings.DEFAULTS);
  }

  @Test
  void read_thePortVariable_winsOverTheFile() throws Exception {
    UiSettings settings = load("[ui]\nport = 4000\n", Map.of("CORTEX_UI_PORT", "4100"));
    assertThat(settings.port()).isEqualTo(4100);
    assertThat(load("[ui]\nport = 0\n", Map.of()).port()).isZero();
    assertThat(load("[ui]\nsession_hours = 720\n", Map.of()).session())
        .isEqualTo(Duration.ofDays(30));
  }

  @Test
  void read_aNonLoopbackBindWithoutTls_isRefused_unlessTheWorkbenchIsOff() throws Exception {
    assertThatThrownBy(() -> load("[ui]\nbind = \"0.0.0.0\"\n", Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[ui] bind")
        .hasMessageContaining("without TLS; set [ui] keystore, or bind to 127.0.0.1");
    assertThat(load("[ui]\nenabled = false\nbind = \"0.0.0.0\"\n", Map.of()).enabled()).isFalse();
    assertThat(load("[ui]\nbind = \"::1\"\n", Map.of()).url(3004)).isEqualTo("http://[::1]:3004");
  }

  @Test
  void read_withAKeystore_isTls_andAWildcardBindNamesLoopbackInItsUrl() throws Exception {
    Files.write(dir.resolve("ui.p12"), new byte[] {1, 2, 3});
    UiSettings settings = load("[ui]\nbind = \"0.0.0.0\"\nkeystore = \"ui.p12\"\n", Map.of());
    assertThat(settings.tls()).isTrue();
    assertThat(settings.keystore()).isEqualTo(dir.resolve("ui.p12"));
    assertThat(settings.url(3443)).isEqualTo("https://127.0.0.1:3443");
  }

  @Test
  void read_badValues_nameTheKey() {
    assertThatThrownBy(() -> load("[ui]\nport = 70000\n", Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[ui] port");
    assertThatThrownBy(() -> load("[ui]\nsession_hours = 0\n", Map.of()))
        .hasMessageContaining("[ui] session_hours");
    assertThatThrownBy(() -> load("[ui]\nbind = \" \"\n", Map.of()))
        .hasMessageContaining("[ui] bind: expected a non-empty string");
    assertThatThrownBy(() -> load("[ui]\nkeystore = \"missing.p12\"\n", Map.of()))
        .hasMessageContaining("[ui] keystore");
    assertThatThrownBy(() -> load("[ui]\ncolour = \"blue\"\n", Map.of()))
        .hasMessageContaining("colour");
  }
}
