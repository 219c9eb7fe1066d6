package dev.cortex.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The catalog: built-ins, the user's tables of cortex.toml, the environment's base URLs. */
class ModelCatalogTest {
  @TempDir Path config;

  ModelCatalog load(String toml, Map<String, String> env) throws Exception {
    if (toml != null) {
      Files.writeString(config.resolve(CortexToml.FILE), toml);
    }
    return ModelCatalog.of(CortexToml.load(config, env, ModelCatalog.TABLES), env);
  }

  String problem(String toml) {
    return problem(toml, Map.of());
  }

  String problem(String toml, Map<String, String> env) {
    try {
      load(toml, env);
    } catch (StartupException e) {
      return e.getMessage();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("the settings were accepted");
  }

  String file() {
    return config.resolve(CortexToml.FILE).toString();
  }

  @Test
  void builtIn_hasAnthropicAndOpenAi_andCurrentModelsThatTheShippedTablePrices() {
    ModelCatalog catalog = ModelCatalog.builtIn();

    assertThat(catalog.provider("anthropic"))
        .isEqualTo(
            new ModelProvider(
                "anthropic",
                ProviderKind.ANTHROPIC,
                URI.create("https://api.anthropic.com"),
                "ANTHROPIC_API_KEY"));
    assertThat(catalog.provider("openai"))
        .isEqualTo(
            new ModelProvider(
                "openai",
                ProviderKind.OPENAI_COMPATIBLE,
                URI.create("https://api.openai.com/v1"),
                "OPENAI_API_KEY"));
    assertThat(catalog.models())
        .extracting(ModelSpec::name)
        .contains("claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5", "gpt-5", "gpt-4o");
    for (ModelSpec model : catalog.models()) {
      assertThat(catalog.price(model)).as(model.name()).isPresent();
      assertThat(model.maxOutputTokens()).as(model.name()).isLessThan((int) model.contextTokens());
      catalog.provider(model);
    }
    assertThat(catalog.defaultModel()).isEqualTo("claude-sonnet-4-5");
    assertThat(catalog.model(catalog.defaultModel())).isPresent();
    assertThat(catalog.model("claude-sonnet-4-5").orElseThrow().contextTokens()).isEqualTo(200_000);
    assertThat(catalog.model("acme-7")).isEmpty();
  }

  @Test
  void usd_isTheShippedPriceByApiName_cacheTokensAtTheirRates() {
    ModelCatalog catalog = ModelCatalog.builtIn();
    ModelSpec sonnet = catalog.model("claude-sonnet-4-5").orElseThrow();

    // $3 in, $15 out, $0.30 cache reads, $3.75 cache writes per million tokens
    assertThat(catalog.usd(sonnet, new Usage(1_000_000, 100_000, 2_000_000, 400_000)))
        .hasValueSatisfying(usd -> assertThat(usd).isEqualByComparingTo("6.60"));
  }

  @Test
  void of_userProvidersAndModels_joinTheBuiltIns_withTheirPricesFallbacksAndDefault()
      throws Exception {
    ModelCatalog catalog =
        load(
            """
            [providers.ollama]
            kind = "openai-compatible"
            base_url = "http://127.0.0.1:11434/v1/"

            [providers.groq]
            kind = "openai-compatible"
            base_url = "https://api.groq.com/openai/v1"
            key_variable = "GROQ_API_KEY"

            [models]
            default = "llama3.1"

            [models."llama3.1"]
            provider = "ollama"
            context_tokens = 131072
            max_output_tokens = 4096
            fallbacks = ["claude-haiku-4-5", "gpt-4o-mini"]
            price = { input = 0.1, output = 0.2 }

            [models.fast]
            provider = "groq"
            api_name = "llama-3.1-8b-instant"
            context_tokens = 8192

            [models.claude-sonnet-4-5]
            fallbacks = ["llama3.1"]
            """,
            Map.of());

    assertThat(catalog.provider("ollama"))
        .isEqualTo(
            new ModelProvider(
                "ollama",
                ProviderKind.OPENAI_COMPATIBLE,
                URI.create("http://127.0.0.1:11434/v1"),
                null));
    assertThat(catalog.provider("groq").keyVariable()).isEqualTo("GROQ_API_KEY");
    ModelSpec llama = catalog.model("llama3.1").orElseThrow();
    assertThat(llama)
        .isEqualTo(
            new ModelSpec(
                "llama3.1",
                "ollama",
                "llama3.1",
                131_072,
                4096,
                List.of("claude-haiku-4-5", "gpt-4o-mini")));
    assertThat(catalog.model("fast").orElseThrow())
        .isEqualTo(new ModelSpec("fast", "groq", "llama-3.1-8b-instant", 8192, 8192, List.of()));
    assertThat(catalog.model("claude-sonnet-4-5").orElseThrow().fallbacks())
        .containsExactly("llama3.1");
    assertThat(catalog.model("claude-sonnet-4-5").orElseThrow().maxOutputTokens())
        .isEqualTo(64_000);
    assertThat(catalog.defaultModel()).isEqualTo("llama3.1");
    assertThat(catalog.models().get(catalog.models().size() - 1).name()).isEqualTo("fast");

    ModelPrices.Price price = catalog.price(llama).orElseThrow();
    assertThat(price.cacheRead()).isEqualByComparingTo("0.1");
    assertThat(price.cacheWrite()).isEqualByComparingTo("0.1");
    assertThat(catalog.usd(llama, new Usage(1_000_000, 1_000_000, 0, 0)))
        .hasValueSatisfying(usd -> assertThat(usd).isEqualByComparingTo(new BigDecimal("0.3")));
    assertThat(catalog.usd(catalog.model("fast").orElseThrow(), new Usage(1, 1, 0, 0))).isEmpty();
  }

  @Test
  void of_environmentBaseUrls_moveTheBuiltIns_overTheFile_openAiWithoutAPathGetsV1()
      throws Exception {
    ModelCatalog catalog =
        load(
            """
            [providers.anthropic]
            base_url = "https://proxy.example/anthropic"
            [providers.openai]
            base_url = "https://proxy.example/openai/v1"
            """,
            Map.of(
                "CORTEX_ANTHROPIC_BASE_URL", "http://127.0.0.1:8080/",
                "CORTEX_OPENAI_BASE_URL", "http://127.0.0.1:9090"));

    assertThat(catalog.provider("anthropic").baseUrl())
        .isEqualTo(URI.create("http://127.0.0.1:8080"));
    assertThat(catalog.provider("anthropic").keyVariable()).isEqualTo("ANTHROPIC_API_KEY");
    assertThat(catalog.provider("openai").baseUrl())
        .isEqualTo(URI.create("http://127.0.0.1:9090/v1"));
    assertThat(
            ModelCatalog.builtIn()
                .withBaseUrlsFrom(Map.of("CORTEX_OPENAI_BASE_URL", "http://host:1/api/"))
                .provider("openai")
                .baseUrl())
        .isEqualTo(URI.create("http://host:1/api"));
    assertThat(load(null, Map.of()).provider("anthropic").baseUrl())
        .isEqualTo(URI.create("https://proxy.example/anthropic"));
  }

  @Test
  void provider_unknown_namesTheKnownOnes() {
    assertThatThrownBy(() -> ModelCatalog.builtIn().provider("acme"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown provider 'acme'; known: anthropic, openai");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          unknown key | [providers.x] \\n kind = "anthropic" \\n base_url = "http://h" \\n token = "t" | [providers] x.token: unknown key (known: base_url, key_variable, kind)
          bad kind | [providers.x] \\n kind = "ollamaish" \\n base_url = "http://h" | [providers] x.kind: 'ollamaish' is not a provider kind; use anthropic or openai-compatible
          no kind | [providers.x] \\n base_url = "http://h" | [providers] x.kind: missing: a provider of your own has a kind and a base_url
          no base url | [providers.x] \\n kind = "anthropic" | [providers] x.base_url: missing: a provider of your own has a kind and a base_url
          ftp url | [providers.x] \\n kind = "anthropic" \\n base_url = "ftp://h" | [providers] x.base_url: 'ftp://h' is not an http or https URL with a host
          url without host | [providers.x] \\n kind = "anthropic" \\n base_url = "http:///v1" | [providers] x.base_url: 'http:///v1' is not an http or https URL with a host
          url with a password | [providers.x] \\n kind = "anthropic" \\n base_url = "https://me:hunter2@h" | [providers] x.base_url: the URL must not carry a user name or password: give the key through its variable
          url with a query | [providers.x] \\n kind = "anthropic" \\n base_url = "https://h/v1?key=abc" | [providers] x.base_url: the URL must not carry a query or a fragment
          bad key variable | [providers.x] \\n kind = "anthropic" \\n base_url = "http://h" \\n key_variable = "MY KEY" | [providers] x.key_variable: 'MY KEY' is not an environment variable name
          bad provider name | [providers."a b"] \\n kind = "anthropic" \\n base_url = "http://h" | [providers] a b: a provider's name has letters, digits, '.', '_' and '-' (at most 64)
          provider not a table | [providers] \\n x = "anthropic" | [providers] x: expected a table
          model unknown key | [models.m] \\n provider = "anthropic" \\n context_tokens = 1000 \\n temperature = 1 | [models] m.temperature: unknown key (known: api_name, context_tokens, fallbacks, max_output_tokens, price, provider)
          model of no provider | [models.m] \\n provider = "acme" \\n context_tokens = 1000 | [models] m.provider: 'acme' is no provider; known: anthropic, openai
          model without provider | [models.m] \\n context_tokens = 1000 | [models] m.provider: missing: a model of your own names its provider
          model without context | [models.m] \\n provider = "openai" | [models] m.context_tokens: missing: a model of your own gives its context window's size
          context not a number | [models.m] \\n provider = "openai" \\n context_tokens = "big" | [models] m.context_tokens: expected a whole number from 1 to 100000000
          context zero | [models.m] \\n provider = "openai" \\n context_tokens = 0 | [models] m.context_tokens: 0 is out of range: use 1 to 100000000
          output over context | [models.m] \\n provider = "openai" \\n context_tokens = 1000 \\n max_output_tokens = 2000 | [models] m.max_output_tokens: an answer of 2000 tokens does not fit a context window of 1000
          unknown fallback | [models.claude-haiku-4-5] \\n fallbacks = ["gpt-9"] | [models] claude-haiku-4-5.fallbacks: 'gpt-9' is no model of the catalog
          own fallback | [models.claude-haiku-4-5] \\n fallbacks = ["claude-haiku-4-5"] | [models] claude-haiku-4-5.fallbacks: a model is not its own fallback
          fallbacks not a list | [models.claude-haiku-4-5] \\n fallbacks = "gpt-4o" | [models] claude-haiku-4-5.fallbacks: expected a list of model names, e.g. ["a", "b"]
          price without output | [models.gpt-4o] \\n price = { input = 1 } | [models] gpt-4o.price.output: missing: a price has input and output
          negative price | [models.gpt-4o] \\n price = { input = -1, output = 2 } | [models] gpt-4o.price.input: expected US dollars per million tokens, 0 or more
          price unknown key | [models.gpt-4o] \\n price = { input = 1, output = 2, batch = 1 } | [models] gpt-4o.price.batch: unknown key (known: cache_read, cache_write, input, output)
          price not a table | [models.gpt-4o] \\n price = 3 | [models] gpt-4o.price: expected a table of US dollars per million tokens, e.g. {input = 3, output = 15}
          unknown default | [models] \\n default = "gpt-9" | [models] default: 'gpt-9' is no model of the catalog
          default not a string | [models] \\n default = 3 | [models] default: expected a non-empty string
          """)
  void of_badEntry_stopsNamingTheFileAndTheKey(String what, String toml, String expected) {
    String message = problem(toml.replace("\\n", "\n"));

    assertThat(message).isEqualTo(file() + ": " + expected);
    assertThat(message).doesNotContain("hunter2").doesNotContain("key=abc");
  }

  @Test
  void of_badEnvironmentUrl_namesTheVariable_withoutRepeatingACredential() {
    assertThat(problem(null, Map.of("CORTEX_OPENAI_BASE_URL", "ftp://models.example")))
        .isEqualTo("CORTEX_OPENAI_BASE_URL is not an http or https URL: 'ftp://models.example'");
    assertThat(problem(null, Map.of("CORTEX_ANTHROPIC_BASE_URL", "https://u:sk-secret@h")))
        .isEqualTo(
            "CORTEX_ANTHROPIC_BASE_URL must not carry a user name or password: give the key"
                + " through its variable");
  }

  @Test
  void of_unknownTopLevelTable_isStillRefusedByTheSettings() throws Exception {
    Files.writeString(config.resolve(CortexToml.FILE), "[model]\nx = 1\n");

    assertThatThrownBy(() -> CortexToml.load(config, Map.of(), ModelCatalog.TABLES))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("unknown table or key 'model'");
  }

  @Test
  void check_entriesThatDoNotHold_stopLikeOf_andNoEntriesPass() throws Exception {
    ModelCatalog.check(CortexToml.load(config, Map.of(), ModelCatalog.TABLES));
    Files.writeString(config.resolve(CortexToml.FILE), "[models]\ndefault = \"gpt-9\"\n");

    assertThatThrownBy(
            () -> ModelCatalog.check(CortexToml.load(config, Map.of(), ModelCatalog.TABLES)))
        .isInstanceOf(StartupException.class)
        .hasMessage(file() + ": [models] default: 'gpt-9' is no model of the catalog");
  }
}
