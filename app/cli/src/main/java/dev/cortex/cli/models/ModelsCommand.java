package dev.cortex.cli.models;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Settings;
import dev.cortex.cli.Table;
import dev.cortex.models.ApiKeys;
import dev.cortex.models.ModelCatalog;
import dev.cortex.models.ModelPrices;
import dev.cortex.models.ModelProvider;
import dev.cortex.models.ModelSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code cortex models}: the models Cortex can call, {@code list}. */
@Command(
    name = "models",
    mixinStandardHelpOptions = true,
    description = "The language models Cortex can call (built in, and from cortex.toml).")
public final class ModelsCommand implements Callable<Integer> {
  private final Io io;

  public ModelsCommand(Io io) {
    this.io = io;
  }

  /** The command with its verbs, for {@code cortex} to add. */
  public static CommandLine line(Io io) {
    CommandLine models = new CommandLine(new ModelsCommand(io));
    models.addSubcommand("list", new ListModels(io));
    return models;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(io, "cortex models: say 'list'.");
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description =
          "List every model with its provider, context size, price per million tokens and the"
              + " API key it needs (whether it is set, never its value).")
  public static final class ListModels implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print JSON instead of a table, for scripts.")
    boolean json;

    public ListModels(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      ModelCatalog catalog = Settings.load(io.home(), io.env()).models(io.env());
      ApiKeys keys = new ApiKeys(io.home(), io.env());
      Map<String, ApiKeys.KeyState> states = new LinkedHashMap<>();
      for (ModelProvider provider : catalog.providers()) {
        states.put(provider.name(), keys.state(provider));
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      for (ModelSpec model : catalog.models()) {
        rows.add(row(catalog, model, states.get(model.provider())));
      }
      if (json) {
        Map<String, Object> listed = new LinkedHashMap<>();
        listed.put("default", catalog.defaultModel());
        listed.put("models", rows);
        io.out().println(Json.writePretty(listed));
      } else {
        io.out().print(text(rows));
        io.out().println("default model: " + catalog.defaultModel());
      }
      return CortexCommand.OK;
    }
  }

  static Map<String, Object> row(ModelCatalog catalog, ModelSpec model, ApiKeys.KeyState key) {
    ModelProvider provider = catalog.provider(model);
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", model.name());
    row.put("provider", provider.name());
    row.put("kind", provider.kind().wireName());
    row.put("api_name", model.apiName());
    row.put("base_url", provider.baseUrl().toString());
    row.put("context_tokens", model.contextTokens());
    row.put("max_output_tokens", model.maxOutputTokens());
    row.put("fallbacks", model.fallbacks());
    row.put("price", catalog.price(model).map(ModelsCommand::price).orElse(null));
    row.put("key_variable", provider.keyVariable());
    row.put("key", key.words());
    row.put("default", model.name().equals(catalog.defaultModel()));
    return row;
  }

  private static Map<String, BigDecimal> price(ModelPrices.Price price) {
    Map<String, BigDecimal> usd = new LinkedHashMap<>();
    usd.put("input", price.input());
    usd.put("output", price.output());
    usd.put("cache_read", price.cacheRead());
    usd.put("cache_write", price.cacheWrite());
    return usd;
  }

  /** The rows as a table for people: one line a model. */
  static String text(List<Map<String, Object>> rows) {
    List<List<String>> table = new ArrayList<>();
    table.add(List.of("MODEL", "PROVIDER", "KIND", "CONTEXT", "IN $/M", "OUT $/M", "KEY"));
    for (Map<String, Object> row : rows) {
      @SuppressWarnings("unchecked")
      Map<String, BigDecimal> price = (Map<String, BigDecimal>) row.get("price");
      Object variable = row.get("key_variable");
      table.add(
          List.of(
              row.get("name") + (Boolean.TRUE.equals(row.get("default")) ? " *" : ""),
              String.valueOf(row.get("provider")),
              String.valueOf(row.get("kind")),
              tokens((Long) row.get("context_tokens")),
              price == null ? "-" : usd(price.get("input")),
              price == null ? "-" : usd(price.get("output")),
              variable == null ? "none needed" : variable + " (" + row.get("key") + ")"));
    }
    return Table.render(table);
  }

  private static String tokens(long count) {
    return String.format(Locale.ROOT, "%,d", count);
  }

  private static String usd(BigDecimal amount) {
    return amount.stripTrailingZeros().toPlainString();
  }
}
