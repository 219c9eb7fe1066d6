package dev.cortex.e2e.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex models list} against the built program: the built-in models and those of {@code
 * cortex.toml}, with where each key comes from and never the key. The table is compared against a
 * golden file (regenerate it with {@code -Dcortex.writeGolden=true}).
 */
class ModelsListIT {
  static final String ANTHROPIC_KEY = "sk-ant-e2e-not-a-real-key-0123";
  static final String GROQ_KEY = "gsk-e2e-not-a-real-key-4567";

  @TempDir Path home;
  private Map<String, String> env;

  @BeforeEach
  void environment() {
    env = new HashMap<>(CortexProcess.env(home));
    for (String variable :
        List.of(
            "ANTHROPIC_API_KEY",
            "OPENAI_API_KEY",
            "GROQ_API_KEY",
            "CORTEX_ANTHROPIC_BASE_URL",
            "CORTEX_OPENAI_BASE_URL")) {
      env.remove(variable);
    }
  }

  void settings(String toml) throws IOException {
    Path config = Files.createDirectories(home.resolve("config"));
    Files.writeString(config.resolve("cortex.toml"), toml);
  }

  void secrets(String permissions, String json) throws IOException {
    Path file = Files.createDirectories(home.resolve("config")).resolve("secrets.json");
    Files.writeString(file, json);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
  }

  @Test
  void list_showsBuiltInAndOwnModels_withWhereEachKeyComesFrom_neverTheKey() throws Exception {
    settings(
        """
        [providers.ollama]
        kind = "openai-compatible"
        base_url = "http://127.0.0.1:11434/v1"

        [providers.groq]
        kind = "openai-compatible"
        base_url = "https://api.groq.com/openai/v1"
        key_variable = "GROQ_API_KEY"

        [models]
        default = "llama3.1"

        [models."llama3.1"]
        provider = "ollama"
        context_tokens = 131072
        max_output_tokens = 8192
        fallbacks = ["claude-haiku-4-5"]
        price = { input = 0, output = 0 }

        [models.fast]
        provider = "groq"
        api_name = "llama-3.1-8b-instant"
        context_tokens = 131072
        """);
    secrets("rw-------", "{\"GROQ_API_KEY\": \"" + GROQ_KEY + "\"}");
    env.put("ANTHROPIC_API_KEY", ANTHROPIC_KEY);

    CortexProcess.Finished table = CortexProcess.run(env, "models", "list");
    CortexProcess.Finished json = CortexProcess.run(env, "models", "list", "--json");

    assertThat(table.exitCode()).as(table.stderr()).isZero();
    assertGolden(table.stdout(), "models-list.txt");
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    for (String said : List.of(table.stdout(), table.stderr(), json.stdout(), json.stderr())) {
      assertThat(said).doesNotContain(ANTHROPIC_KEY).doesNotContain(GROQ_KEY);
    }

    JsonNode listed = TestJson.JSON.readTree(json.stdout());
    assertThat(listed.path("default").asString()).isEqualTo("llama3.1");
    JsonNode llama = model(listed, "llama3.1");
    assertThat(llama.path("provider").asString()).isEqualTo("ollama");
    assertThat(llama.path("kind").asString()).isEqualTo("openai-compatible");
    assertThat(llama.path("base_url").asString()).isEqualTo("http://127.0.0.1:11434/v1");
    assertThat(llama.path("context_tokens").asLong()).isEqualTo(131072);
    assertThat(llama.path("max_output_tokens").asInt()).isEqualTo(8192);
    assertThat(llama.path("fallbacks")).isEqualTo(TestJson.JSON.readTree("[\"claude-haiku-4-5\"]"));
    assertThat(llama.path("price").path("output").decimalValue()).isZero();
    assertThat(llama.path("key_variable").isNull()).isTrue();
    assertThat(llama.path("key").asString()).isEqualTo("not needed");
    assertThat(llama.path("default").asBoolean()).isTrue();
    assertThat(model(listed, "fast").path("api_name").asString()).isEqualTo("llama-3.1-8b-instant");
    assertThat(model(listed, "fast").path("key").asString()).isEqualTo("from secrets file");
    assertThat(model(listed, "fast").path("price").isNull()).isTrue();
    assertThat(model(listed, "claude-sonnet-4-5").path("key").asString())
        .isEqualTo("from environment");
    assertThat(model(listed, "claude-sonnet-4-5").path("price").path("input").decimalValue())
        .isEqualByComparingTo("3");
    assertThat(model(listed, "gpt-4o").path("key_variable").asString()).isEqualTo("OPENAI_API_KEY");
    assertThat(model(listed, "gpt-4o").path("key").asString()).isEqualTo("missing");
  }

  @Test
  void list_secretsFileOthersMayRead_isReportedUnreadable_andTheBaseUrlVariableMovesAProvider()
      throws Exception {
    secrets("rw-r--r--", "{\"OPENAI_API_KEY\": \"sk-in-an-open-file-0123\"}");
    env.put("CORTEX_OPENAI_BASE_URL", "http://127.0.0.1:8000");

    CortexProcess.Finished json = CortexProcess.run(env, "models", "list", "--json");

    assertThat(json.exitCode()).as(json.stderr()).isZero();
    JsonNode gpt = model(TestJson.JSON.readTree(json.stdout()), "gpt-4o");
    assertThat(gpt.path("key").asString()).isEqualTo("secrets file unreadable");
    assertThat(gpt.path("base_url").asString()).isEqualTo("http://127.0.0.1:8000/v1");
    assertThat(json.stdout()).doesNotContain("sk-in-an-open-file-0123");
  }

  @Test
  void list_badCortexToml_failsAsBadUsage_namingTheFileAndTheKey() throws Exception {
    settings(
        """
        [models.mine]
        provider = "nowhere"
        context_tokens = 1000
        """);

    CortexProcess.Finished listed = CortexProcess.run(env, "models", "list");

    assertThat(listed.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(listed.stdout()).isEmpty();
    assertThat(listed.stderr().strip())
        .isEqualTo(
            "cortex: "
                + home.resolve("config").resolve("cortex.toml")
                + ": [models] mine.provider: 'nowhere' is no provider; known: anthropic, openai");
  }

  @Test
  void models_withoutAVerb_isBadUsage() throws Exception {
    CortexProcess.Finished bare = CortexProcess.run(env, "models");

    assertThat(bare.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(bare.stderr().strip()).isEqualTo("cortex models: say 'list'.");
  }

  private static JsonNode model(JsonNode listed, String name) {
    for (JsonNode model : listed.path("models")) {
      if (model.path("name").asString().equals(name)) {
        return model;
      }
    }
    throw new AssertionError("no model " + name + " in " + listed);
  }

  private static void assertGolden(String actual, String name) throws IOException {
    Path expected = Checkout.path("testing/workflows/src/test/resources/" + name);
    if (Boolean.getBoolean("cortex.writeGolden")) {
      Files.createDirectories(expected.getParent());
      Files.writeString(expected, actual, StandardCharsets.UTF_8);
    }
    assertThat(actual)
        .as("differs from %s: regenerate it with -Dcortex.writeGolden=true", expected)
        .isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
  }
}
