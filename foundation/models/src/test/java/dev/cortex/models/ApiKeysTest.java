package dev.cortex.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.base.CortexHome;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys from the environment, else the owner-only secrets file; never shown. */
class ApiKeysTest {
  @TempDir Path home;

  private final ModelProvider anthropic = ModelCatalog.builtIn().provider("anthropic");
  private final ModelProvider local =
      new ModelProvider(
          "ollama", ProviderKind.OPENAI_COMPATIBLE, URI.create("http://127.0.0.1:11434/v1"), null);

  ApiKeys keys(Map<String, String> env) {
    return new ApiKeys(new CortexHome(home, home.resolve("data")), env);
  }

  Path secrets(String permissions, String content) throws IOException {
    Path file = home.resolve("config").resolve("secrets.json");
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  boolean posix() {
    return Files.getFileAttributeView(home, PosixFileAttributeView.class) != null;
  }

  @Test
  void require_environmentVariable_winsOverTheSecretsFile() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    secrets("rw-------", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");
    ApiKeys keys = keys(Map.of("ANTHROPIC_API_KEY", " sk-from-env\n"));

    assertThat(keys.require(anthropic)).isEqualTo("sk-from-env");
    assertThat(keys.state(anthropic)).isEqualTo(ApiKeys.KeyState.ENVIRONMENT);
  }

  @Test
  void require_ownerOnlySecretsFile_suppliesTheKey_whenTheVariableIsUnsetOrBlank()
      throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    secrets("rw-------", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");
    ApiKeys keys = keys(Map.of("ANTHROPIC_API_KEY", "  "));

    assertThat(keys.require(anthropic)).isEqualTo("sk-from-file");
    assertThat(keys.state(anthropic)).isEqualTo(ApiKeys.KeyState.SECRETS_FILE);
    assertThat(keys.state(anthropic).words()).isEqualTo("from secrets file");
  }

  @Test
  void require_secretsFileOthersMayRead_isRefusedUnread() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    Path file = secrets("rw-r--r--", "{\"ANTHROPIC_API_KEY\": \"sk-from-file\"}");
    ApiKeys keys = keys(Map.of());

    assertThat(keys.state(anthropic)).isEqualTo(ApiKeys.KeyState.SECRETS_UNREADABLE);
    assertThatThrownBy(() -> keys.require(anthropic))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.MISSING_KEY);
              assertThat(f.retryable()).isFalse();
              assertThat(f.getMessage())
                  .isEqualTo(
                      "refusing to read "
                          + file
                          + ": group or others may access it; make it owner-only with chmod 600")
                  .doesNotContain("sk-from-file");
            });
  }

  @Test
  void require_secretsFileNotAnObjectOfKeys_isUnreadable() throws Exception {
    assumeTrue(posix(), "POSIX permissions");
    Path file = secrets("rw-------", "[\"sk-1\"]");

    assertThat(keys(Map.of()).state(anthropic)).isEqualTo(ApiKeys.KeyState.SECRETS_UNREADABLE);
    assertThatThrownBy(() -> keys(Map.of()).require(anthropic))
        .hasMessage(file + " must hold a JSON object of key names to keys");
  }

  @Test
  void require_noKeyAnywhere_namesTheVariableAndTheFile() {
    ApiKeys keys = keys(Map.of("OPENAI_API_KEY", "sk-other"));

    assertThat(keys.state(anthropic)).isEqualTo(ApiKeys.KeyState.MISSING);
    assertThatThrownBy(() -> keys.require(anthropic))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.MISSING_KEY);
              assertThat(f.getMessage())
                  .isEqualTo(
                      "no API key: set the environment variable ANTHROPIC_API_KEY or add"
                          + " \"ANTHROPIC_API_KEY\" to "
                          + keys.secretsFile()
                          + " (readable by its owner only)");
            });
  }

  @Test
  void require_providerWithoutAKey_needsNone() throws Exception {
    ApiKeys keys = keys(Map.of());

    assertThat(keys.require(local)).isNull();
    assertThat(keys.state(local)).isEqualTo(ApiKeys.KeyState.NOT_NEEDED);
    assertThat(keys.state(local).usable()).isTrue();
    assertThat(ApiKeys.KeyState.MISSING.usable()).isFalse();
  }
}
