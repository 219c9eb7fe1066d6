package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.base.StartupException;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.testing.Checkout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** cortex.toml and the variables over it. */
class SettingsTest {
  @TempDir Path dir;
  private CortexHome home;
  private Path file;

  @BeforeEach
  void setUp() throws Exception {
    home = new CortexHome(dir, dir.resolve("data"));
    file = Files.createDirectories(home.configDir()).resolve("cortex.toml");
  }

  @Test
  void load_noFileNoVariables_isTheEmbeddedEngineAndALocalCluster() {
    Settings settings = Settings.load(home, Map.of());

    assertThat(settings.temporalEngine()).isFalse();
    assertThat(settings.temporal().address()).isEqualTo("127.0.0.1:7233");
    assertThat(settings.temporal().namespace()).isEqualTo("default");
    assertThat(settings.temporal().taskQueue()).isEqualTo("cortex");
    assertThat(settings.temporal().usesTls()).isFalse();
  }

  @Test
  void load_everyKeyOfTheFile_thenVariablesOverIt() throws Exception {
    Files.writeString(dir.resolve("ca.pem"), "not read until a connection is made");
    Files.writeString(
        file,
        """
        [workflows]
        engine = "temporal"

        [temporal]
        address = "ns.a1b2c.tmprl.cloud:7233"
        namespace = "ns.a1b2c"
        task_queue = "team"
        tls = true
        tls_ca = "../ca.pem"
        api_key_env = "TEMPORAL_API_KEY"
        heartbeat_timeout = "45s"
        """);

    Settings fromFile = Settings.load(home, Map.of());
    Settings overridden =
        Settings.load(
            home,
            Map.of(
                "CORTEX_WORKFLOWS_ENGINE", "embedded",
                "CORTEX_TEMPORAL_TASK_QUEUE", "mine",
                "CORTEX_TEMPORAL_TLS", "false"));

    assertThat(fromFile.temporalEngine()).isTrue();
    assertThat(fromFile.temporal().address()).isEqualTo("ns.a1b2c.tmprl.cloud:7233");
    assertThat(fromFile.temporal().namespace()).isEqualTo("ns.a1b2c");
    assertThat(fromFile.temporal().taskQueue()).isEqualTo("team");
    assertThat(fromFile.temporal().tlsCa()).isEqualTo(home.configDir().resolve("../ca.pem"));
    assertThat(fromFile.temporal().apiKeyEnv()).isEqualTo("TEMPORAL_API_KEY");
    assertThat(fromFile.temporal().heartbeatTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(overridden.temporalEngine()).isFalse();
    assertThat(overridden.temporal().taskQueue()).isEqualTo("mine");
    assertThat(overridden.temporal().tls()).isFalse();
    assertThat(overridden.temporal().usesTls()).isTrue();
  }

  @Test
  void load_theExampleOfTheWorkflowsGuide() throws Exception {
    String guide = Files.readString(Checkout.path("docs/workflows.md"));
    int start = guide.indexOf("```toml\n") + "```toml\n".length();
    Files.writeString(file, guide.substring(start, guide.indexOf("```", start)));

    Settings settings = Settings.load(home, Map.of());

    assertThat(settings.temporalEngine()).isTrue();
    assertThat(settings.temporal().address()).isEqualTo("temporal.internal:7233");
    assertThat(settings.temporal().taskQueue()).isEqualTo("cortex");
    assertThat(settings.temporal().heartbeatTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void load_theExampleOfTheWaitpointsGuide_isTheDefaults() throws Exception {
    String guide = Files.readString(Checkout.path("docs/waitpoints.md"));
    int start = guide.indexOf("```toml\n[waitpoints]") + "```toml\n".length();
    Files.writeString(file, guide.substring(start, guide.indexOf("```", start)));

    Settings settings = Settings.load(home, Map.of());

    assertThat(settings.get(WaitSettings.TABLE)).isEqualTo(WaitSettings.DEFAULTS);
  }

  @Test
  void load_anUnknownKey_namesTheFileAndTheKey() throws Exception {
    Files.writeString(file, "[temporal]\nadress = \"x:1\"\n");

    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("[temporal] adress")
        .hasMessageContaining("address");
  }

  @Test
  void load_badValues_sayWhatIsExpected() throws Exception {
    Files.writeString(file, "[workflows]\nengine = \"cluster\"\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .hasMessageContaining(file + ": [workflows] engine")
        .hasMessageContaining("\"embedded\" or \"temporal\"");

    Files.writeString(file, "[temporal]\nheartbeat_timeout = 30\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .hasMessageContaining("[temporal] heartbeat_timeout: expected a non-empty string");

    Files.writeString(file, "[temporal]\ntls_cert = \"missing.pem\"\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .hasMessageContaining("[temporal] tls_cert: cannot read");

    Files.writeString(file, "[temporal\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .hasMessageContaining(file + " is not valid TOML");

    Files.delete(file);
    assertThatThrownBy(() -> Settings.load(home, Map.of("CORTEX_TEMPORAL_ADDRESS", "nowhere")))
        .hasMessageContaining("address 'nowhere' is not host:port");
    assertThatThrownBy(
            () -> Settings.load(home, Map.of("CORTEX_TEMPORAL_HEARTBEAT_TIMEOUT", "soon")))
        .hasMessageContaining("CORTEX_TEMPORAL_HEARTBEAT_TIMEOUT: 'soon' is not a duration");
  }

  @Test
  void load_storageSynchronous_isReadAndChecked() throws Exception {
    assertThat(Settings.load(home, Map.of()).synchronous())
        .isEqualTo(dev.cortex.storage.Synchronous.NORMAL);
    Files.writeString(file, "[storage]\nsynchronous = \"FULL\"\n");
    assertThat(Settings.load(home, Map.of()).synchronous())
        .isEqualTo(dev.cortex.storage.Synchronous.FULL);

    Files.writeString(file, "[storage]\nsynchronous = \"sometimes\"\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining(file + ": [storage] synchronous")
        .hasMessageContaining("NORMAL or FULL");
  }

  @Test
  void load_modelsAndProviders_areComposed_andCheckedAgainstEachOther() throws Exception {
    Files.writeString(
        file,
        """
        [providers.ollama]
        kind = "openai-compatible"
        base_url = "http://127.0.0.1:11434/v1"

        [models.local]
        provider = "ollama"
        context_tokens = 32768
        """);
    Settings settings = Settings.load(home, Map.of("CORTEX_OPENAI_BASE_URL", "ftp://x"));

    assertThat(settings.models(Map.of()).model("local").orElseThrow().provider())
        .isEqualTo("ollama");
    assertThatThrownBy(() -> settings.models(Map.of("CORTEX_OPENAI_BASE_URL", "ftp://x")))
        .isInstanceOf(StartupException.class)
        .hasMessage("CORTEX_OPENAI_BASE_URL is not an http or https URL: 'ftp://x'");

    Files.writeString(file, "[models.local]\nprovider = \"gone\"\ncontext_tokens = 1\n");
    assertThatThrownBy(() -> Settings.load(home, Map.of()))
        .isInstanceOf(StartupException.class)
        .hasMessage(
            file + ": [models] local.provider: 'gone' is no provider; known: anthropic, openai");
  }
}
