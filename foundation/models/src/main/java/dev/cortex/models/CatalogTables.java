package dev.cortex.models;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The {@code [providers]} and {@code [models]} tables of {@code cortex.toml}, whose keys are names:
 * each entry is read and checked here, key by key, and {@link ModelCatalog} joins them to the
 * built-ins (where references between entries are checked).
 *
 * <pre>
 * [providers.ollama]
 * kind = "openai-compatible"
 * base_url = "http://127.0.0.1:11434/v1"
 *
 * [models]
 * default = "llama3.1"
 *
 * [models."llama3.1"]
 * provider = "ollama"
 * context_tokens = 131072
 * max_output_tokens = 8192
 * price = { input = 0, output = 0 }
 * </pre>
 */
final class CatalogTables {
  static final Pattern PROVIDER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
  static final Pattern MODEL_NAME = Pattern.compile("[^\\s\"']{1,200}");
  static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  static final String DEFAULT_KEY = "default";

  private CatalogTables() {}

  /** A problem with a key of an entry, named as the file names it. */
  @FunctionalInterface
  interface Problem {
    StartupException at(String key, String message);
  }

  /** One {@code [providers.NAME]} entry: what it sets (null where it sets nothing). */
  record ProviderEntry(
      String name, ProviderKind kind, URI baseUrl, String keyVariable, Problem problem) {}

  /** One {@code [models.NAME]} entry: what it sets (null where it sets nothing). */
  record ModelEntry(
      String name,
      String provider,
      String apiName,
      Long contextTokens,
      Integer maxOutputTokens,
      List<String> fallbacks,
      ModelPrices.Price price,
      Problem problem) {}

  /** The {@code [models]} table: its entries and the default model it names (or null). */
  record Models(Map<String, ModelEntry> entries, String defaultModel, Problem problem) {}

  static final SettingsTable<Map<String, ProviderEntry>> PROVIDERS =
      SettingsTable.open("providers", CatalogTables::providers);

  private static Map<String, ProviderEntry> providers(TableValues values) {
    Map<String, ProviderEntry> entries = new LinkedHashMap<>();
    for (String name : values.keys()) {
      entries.put(name, provider(values, name));
    }
    return entries;
  }

  static final SettingsTable<Models> MODELS =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "models";
        }

        @Override
        public Set<String> keys() {
          return Set.of(DEFAULT_KEY);
        }

        @Override
        public boolean openKeys() {
          return true;
        }

        @Override
        public Map<String, String> variables() {
          return Map.of();
        }

        @Override
        public Models read(TableValues values) {
          Map<String, ModelEntry> entries = new LinkedHashMap<>();
          for (String name : values.keys()) {
            if (!name.equals(DEFAULT_KEY)) {
              entries.put(name, model(values, name));
            }
          }
          String defaultModel = values.string(DEFAULT_KEY, null);
          return new Models(entries, defaultModel, (key, message) -> values.problem(key, message));
        }
      };

  private static ProviderEntry provider(TableValues values, String name) {
    if (!PROVIDER_NAME.matcher(name).matches()) {
      throw values.problem(
          name, "a provider's name has letters, digits, '.', '_' and '-' (at most 64)");
    }
    Map<String, JsonNode> entry = values.table(name);
    Problem problem = (key, message) -> values.problem(name, key, message);
    ProviderKind kind = null;
    URI baseUrl = null;
    String keyVariable = null;
    for (Map.Entry<String, JsonNode> field : entry.entrySet()) {
      String key = field.getKey();
      JsonNode value = field.getValue();
      switch (key) {
        case "kind" -> {
          String text = string(value, key, problem);
          kind =
              ProviderKind.fromWireName(text)
                  .orElseThrow(
                      () ->
                          problem.at(
                              key,
                              "'"
                                  + text
                                  + "' is not a provider kind; use anthropic or"
                                  + " openai-compatible"));
        }
        case "base_url" -> baseUrl = baseUrl(string(value, key, problem), key, problem);
        case "key_variable" -> {
          keyVariable = string(value, key, problem);
          if (!VARIABLE.matcher(keyVariable).matches()) {
            throw problem.at(key, "'" + keyVariable + "' is not an environment variable name");
          }
        }
        default -> throw problem.at(key, "unknown key (known: base_url, key_variable, kind)");
      }
    }
    return new ProviderEntry(name, kind, baseUrl, keyVariable, problem);
  }

  static URI baseUrl(String text, String key, Problem problem) {
    try {
      return BaseUrls.parse(text);
    } catch (BaseUrls.Refused refused) {
      throw problem.at(
          key,
          refused.repeatable
              ? "'" + text.strip() + "' " + refused.getMessage() + " with a host"
              : "the URL " + refused.getMessage());
    }
  }

  private static ModelEntry model(TableValues values, String name) {
    if (!MODEL_NAME.matcher(name).matches()) {
      throw values.problem(name, "a model's name has no blanks or quotes (at most 200 characters)");
    }
    Map<String, JsonNode> entry = values.table(name);
    Problem problem = (key, message) -> values.problem(name, key, message);
    String provider = null;
    String apiName = null;
    Long contextTokens = null;
    Integer maxOutputTokens = null;
    List<String> fallbacks = null;
    ModelPrices.Price price = null;
    for (Map.Entry<String, JsonNode> field : entry.entrySet()) {
      String key = field.getKey();
      JsonNode value = field.getValue();
      switch (key) {
        case "provider" -> provider = string(value, key, problem);
        case "api_name" -> apiName = string(value, key, problem);
        case "context_tokens" -> contextTokens = whole(value, key, 1, 100_000_000, problem);
        case "max_output_tokens" ->
            maxOutputTokens = (int) whole(value, key, 1, 10_000_000, problem);
        case "fallbacks" -> fallbacks = names(value, key, problem);
        case "price" -> price = price(value, key, problem);
        default ->
            throw problem.at(
                key,
                "unknown key (known: api_name, context_tokens, fallbacks, max_output_tokens,"
                    + " price, provider)");
      }
    }
    return new ModelEntry(
        name, provider, apiName, contextTokens, maxOutputTokens, fallbacks, price, problem);
  }

  private static String string(JsonNode value, String key, Problem problem) {
    if (!value.isString() || value.asString().isBlank()) {
      throw problem.at(key, "expected a non-empty string");
    }
    return value.asString().strip();
  }

  private static long whole(JsonNode value, String key, long min, long max, Problem problem) {
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw problem.at(key, "expected a whole number from " + min + " to " + max);
    }
    long number = value.asLong();
    if (number < min || number > max) {
      throw problem.at(key, number + " is out of range: use " + min + " to " + max);
    }
    return number;
  }

  private static List<String> names(JsonNode value, String key, Problem problem) {
    if (!value.isArray()) {
      throw problem.at(key, "expected a list of model names, e.g. [\"a\", \"b\"]");
    }
    List<String> names = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isString() || item.asString().isBlank()) {
        throw problem.at(key, "expected a list of model names, e.g. [\"a\", \"b\"]");
      }
      names.add(item.asString().strip());
    }
    return List.copyOf(names);
  }

  /** {@code {input, output, cache_read, cache_write}}: US dollars per million tokens. */
  private static ModelPrices.Price price(JsonNode value, String key, Problem problem) {
    if (!value.isObject()) {
      throw problem.at(
          key, "expected a table of US dollars per million tokens, e.g. {input = 3, output = 15}");
    }
    Map<String, BigDecimal> rates = new LinkedHashMap<>();
    BiFunction<String, String, StartupException> at =
        (sub, message) -> problem.at(key + "." + sub, message);
    for (Map.Entry<String, JsonNode> rate : value.properties()) {
      String kind = rate.getKey();
      if (!Set.of("input", "output", "cache_read", "cache_write").contains(kind)) {
        throw at.apply(kind, "unknown key (known: cache_read, cache_write, input, output)");
      }
      JsonNode number = rate.getValue();
      if (!number.isNumber() || number.decimalValue().signum() < 0) {
        throw at.apply(kind, "expected US dollars per million tokens, 0 or more");
      }
      rates.put(kind, number.decimalValue());
    }
    for (String required : List.of("input", "output")) {
      if (!rates.containsKey(required)) {
        throw at.apply(required, "missing: a price has input and output");
      }
    }
    BigDecimal input = rates.get("input");
    return new ModelPrices.Price(
        input,
        rates.get("output"),
        rates.getOrDefault("cache_read", input),
        rates.getOrDefault("cache_write", input));
  }
}
