package dev.cortex.models;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.base.settings.SettingsTable;
import java.math.BigDecimal;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The providers and models Cortex knows: the built-ins ({@code anthropic} and {@code openai}, with
 * current Claude and GPT models), then the user's {@code [providers]} and {@code [models]} tables
 * of {@code cortex.toml}, then the base URLs of the environment ({@code CORTEX_ANTHROPIC_BASE_URL},
 * {@code CORTEX_OPENAI_BASE_URL}). A user entry named as a built-in changes what it sets of it. It
 * also knows what a model's tokens cost: the model's own {@code price}, else the shipped table by
 * its API name.
 */
public final class ModelCatalog {
  /** The model of sessions that name none, unless {@code [models] default} names another. */
  public static final String DEFAULT_MODEL = "claude-sonnet-4-5";

  /** The environment variable that moves the {@code anthropic} provider's base URL. */
  public static final String ANTHROPIC_BASE_URL = "CORTEX_ANTHROPIC_BASE_URL";

  /**
   * The environment variable that moves the {@code openai} provider's base URL (a URL without a
   * path means its {@code /v1}).
   */
  public static final String OPENAI_BASE_URL = "CORTEX_OPENAI_BASE_URL";

  /** The {@code [providers]} table, for the program's settings to compose. */
  public static final SettingsTable<?> PROVIDERS_TABLE = CatalogTables.PROVIDERS;

  /** The {@code [models]} table, for the program's settings to compose. */
  public static final SettingsTable<?> MODELS_TABLE = CatalogTables.MODELS;

  /** Both tables this catalog reads. */
  public static final List<SettingsTable<?>> TABLES = List.of(PROVIDERS_TABLE, MODELS_TABLE);

  /** What a new model of the user's may answer at most, when its entry does not say. */
  static final int DEFAULT_MAX_OUTPUT = 8_192;

  private final Map<String, ModelProvider> providers;
  private final Map<String, ModelSpec> models;
  private final Map<String, ModelPrices.Price> prices;
  private final String defaultModel;

  private ModelCatalog(
      Map<String, ModelProvider> providers,
      Map<String, ModelSpec> models,
      Map<String, ModelPrices.Price> prices,
      String defaultModel) {
    this.providers = copy(providers);
    this.models = copy(models);
    this.prices = copy(prices);
    this.defaultModel = defaultModel;
  }

  private static <V> Map<String, V> copy(Map<String, V> map) {
    return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }

  /** The built-in providers and models, at the public APIs. */
  public static ModelCatalog builtIn() {
    Map<String, ModelProvider> providers = new LinkedHashMap<>();
    for (ModelProvider provider : BuiltIns.PROVIDERS) {
      providers.put(provider.name(), provider);
    }
    Map<String, ModelSpec> models = new LinkedHashMap<>();
    for (ModelSpec model : BuiltIns.MODELS) {
      models.put(model.name(), model);
    }
    return new ModelCatalog(providers, models, Map.of(), DEFAULT_MODEL);
  }

  /**
   * The catalog of loaded settings: the built-ins, the {@code [providers]} and {@code [models]} of
   * {@code settings} (loaded with {@link #TABLES}), then the base-URL variables of {@code env}.
   *
   * @throws StartupException naming the file and key, or the variable, of the first problem (a
   *     model of an unknown provider, a fallback or default that is no model, ...)
   */
  public static ModelCatalog of(CortexToml settings, Map<String, String> env) {
    ModelCatalog builtIn = builtIn();
    Map<String, ModelProvider> providers = new LinkedHashMap<>(builtIn.providers);
    for (CatalogTables.ProviderEntry entry : settings.get(CatalogTables.PROVIDERS).values()) {
      providers.put(entry.name(), provider(entry, providers.get(entry.name())));
    }
    CatalogTables.Models table = settings.get(CatalogTables.MODELS);
    Map<String, ModelSpec> models = new LinkedHashMap<>(builtIn.models);
    Map<String, ModelPrices.Price> prices = new LinkedHashMap<>();
    for (CatalogTables.ModelEntry entry : table.entries().values()) {
      ModelSpec model = model(entry, models.get(entry.name()));
      if (!providers.containsKey(model.provider())) {
        throw entry
            .problem()
            .at(
                "provider",
                "'"
                    + model.provider()
                    + "' is no provider; known: "
                    + String.join(", ", providers.keySet()));
      }
      models.put(entry.name(), model);
      if (entry.price() != null) {
        prices.put(entry.name(), entry.price());
      }
    }
    for (CatalogTables.ModelEntry entry : table.entries().values()) {
      for (String fallback : models.get(entry.name()).fallbacks()) {
        if (fallback.equals(entry.name()) || !models.containsKey(fallback)) {
          throw entry
              .problem()
              .at(
                  "fallbacks",
                  fallback.equals(entry.name())
                      ? "a model is not its own fallback"
                      : "'" + fallback + "' is no model of the catalog");
        }
      }
    }
    String defaultModel = table.defaultModel() == null ? DEFAULT_MODEL : table.defaultModel();
    if (!models.containsKey(defaultModel)) {
      throw table
          .problem()
          .at(CatalogTables.DEFAULT_KEY, "'" + defaultModel + "' is no model of the catalog");
    }
    return new ModelCatalog(providers, models, prices, defaultModel).withBaseUrlsFrom(env);
  }

  /**
   * Checks the {@code [providers]} and {@code [models]} of {@code settings} against each other and
   * the built-ins, as {@link #of} does (the environment aside); nothing is done when they set
   * nothing.
   *
   * @throws StartupException naming the file and key of the first problem
   */
  public static void check(CortexToml settings) {
    CatalogTables.Models table = settings.get(CatalogTables.MODELS);
    if (!settings.get(CatalogTables.PROVIDERS).isEmpty()
        || !table.entries().isEmpty()
        || table.defaultModel() != null) {
      of(settings, Map.of());
    }
  }

  private static ModelProvider provider(CatalogTables.ProviderEntry entry, ModelProvider builtIn) {
    if (builtIn == null && (entry.kind() == null || entry.baseUrl() == null)) {
      throw entry
          .problem()
          .at(
              entry.kind() == null ? "kind" : "base_url",
              "missing: a provider of your own has a kind and a base_url");
    }
    return new ModelProvider(
        entry.name(),
        entry.kind() != null ? entry.kind() : builtIn.kind(),
        entry.baseUrl() != null ? entry.baseUrl() : builtIn.baseUrl(),
        entry.keyVariable() != null
            ? entry.keyVariable()
            : builtIn == null ? null : builtIn.keyVariable());
  }

  private static ModelSpec model(CatalogTables.ModelEntry entry, ModelSpec builtIn) {
    if (builtIn == null && entry.provider() == null) {
      throw entry.problem().at("provider", "missing: a model of your own names its provider");
    }
    if (builtIn == null && entry.contextTokens() == null) {
      throw entry
          .problem()
          .at("context_tokens", "missing: a model of your own gives its context window's size");
    }
    long context = entry.contextTokens() != null ? entry.contextTokens() : builtIn.contextTokens();
    int maxOutput =
        entry.maxOutputTokens() != null
            ? entry.maxOutputTokens()
            : builtIn != null
                ? builtIn.maxOutputTokens()
                : (int) Math.min(DEFAULT_MAX_OUTPUT, context);
    if (maxOutput > context) {
      throw entry
          .problem()
          .at(
              entry.maxOutputTokens() != null ? "max_output_tokens" : "context_tokens",
              "an answer of " + maxOutput + " tokens does not fit a context window of " + context);
    }
    return new ModelSpec(
        entry.name(),
        entry.provider() != null ? entry.provider() : builtIn.provider(),
        entry.apiName() != null
            ? entry.apiName()
            : builtIn != null ? builtIn.apiName() : entry.name(),
        context,
        maxOutput,
        entry.fallbacks() != null
            ? entry.fallbacks()
            : builtIn == null ? List.of() : builtIn.fallbacks());
  }

  /**
   * This catalog with the built-in providers' base URLs from {@code env}: {@value
   * #ANTHROPIC_BASE_URL} and {@value #OPENAI_BASE_URL} (where a URL without a path means its {@code
   * /v1}, as OpenAI's own base URL has).
   *
   * @throws StartupException naming the variable whose URL is refused
   */
  public ModelCatalog withBaseUrlsFrom(Map<String, String> env) {
    Map<String, ModelProvider> moved = new LinkedHashMap<>(providers);
    move(moved, "anthropic", ANTHROPIC_BASE_URL, env, false);
    move(moved, "openai", OPENAI_BASE_URL, env, true);
    return new ModelCatalog(moved, models, prices, defaultModel);
  }

  /**
   * The variable that moves the base URL of the built-in provider {@code provider}: {@value
   * #ANTHROPIC_BASE_URL} for {@code anthropic}, {@value #OPENAI_BASE_URL} for {@code openai}.
   */
  public static Optional<String> baseUrlVariable(String provider) {
    return Optional.ofNullable(
        switch (provider) {
          case "anthropic" -> ANTHROPIC_BASE_URL;
          case "openai" -> OPENAI_BASE_URL;
          default -> null;
        });
  }

  private static void move(
      Map<String, ModelProvider> providers,
      String name,
      String variable,
      Map<String, String> env,
      boolean versionPath) {
    String text = env.get(variable);
    ModelProvider provider = providers.get(name);
    if (text == null || text.isBlank() || provider == null) {
      return;
    }
    URI url;
    try {
      url = BaseUrls.parse(text);
    } catch (BaseUrls.Refused refused) {
      throw new StartupException(
          variable
              + " "
              + refused.getMessage()
              + (refused.repeatable ? ": '" + text.strip() + "'" : ""));
    }
    providers.put(
        name,
        new ModelProvider(
            name,
            provider.kind(),
            versionPath ? BaseUrls.withVersionPath(url) : url,
            provider.keyVariable()));
  }

  /** The model named {@code name}. */
  public Optional<ModelSpec> model(String name) {
    return Optional.ofNullable(name == null ? null : models.get(name));
  }

  /** Every model: the built-ins, then the user's, in the file's order. */
  public List<ModelSpec> models() {
    return List.copyOf(models.values());
  }

  /** Every provider: the built-ins, then the user's. */
  public List<ModelProvider> providers() {
    return List.copyOf(providers.values());
  }

  /**
   * The provider named {@code name}.
   *
   * @throws IllegalArgumentException naming the known providers when there is none of that name
   */
  public ModelProvider provider(String name) {
    ModelProvider provider = providers.get(name);
    if (provider == null) {
      throw new IllegalArgumentException(
          "unknown provider '" + name + "'; known: " + String.join(", ", providers.keySet()));
    }
    return provider;
  }

  /** The provider of {@code model}. */
  public ModelProvider provider(ModelSpec model) {
    return provider(model.provider());
  }

  /** The model of sessions that name none ({@code [models] default}). */
  public String defaultModel() {
    return defaultModel;
  }

  /** The names of every model, joined for a message: {@code a, b, c}. */
  String knownModels() {
    return String.join(", ", models.keySet());
  }

  /** The price of {@code model}: its own, else the shipped table's for its API name. */
  public Optional<ModelPrices.Price> price(ModelSpec model) {
    Objects.requireNonNull(model, "model");
    ModelPrices.Price own = prices.get(model.name());
    return own != null ? Optional.of(own) : ModelPrices.shipped().price(model.apiName());
  }

  /** What {@code usage} of {@code model} costs in US dollars; empty when it has no price. */
  public Optional<BigDecimal> usd(ModelSpec model, Usage usage) {
    return price(model).map(p -> p.usd(ModelPrices.Tokens.of(usage)));
  }
}
