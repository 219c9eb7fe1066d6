package dev.cortex.base.prices;

import dev.cortex.base.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The price table of language models shipped as {@code llm-prices.json}, shared by the workflows'
 * llm steps and the agent server's cost records: US dollars per million input and output tokens by
 * model. A model matches its exact name, or a name plus a snapshot suffix ({@code -20250929},
 * {@code -2024-08-06}, {@code -latest}); the file's {@code note} says the same.
 */
public final class ModelPrices {
  public static final String RESOURCE = "llm-prices.json";

  private static final Pattern SNAPSHOT =
      Pattern.compile("(.+)-(?:\\d{8}|\\d{4}-\\d{2}-\\d{2}|latest)");

  /** A model's price in US dollars per million tokens. */
  public record Price(BigDecimal input, BigDecimal output) {}

  private final Map<String, Price> byModel;

  public ModelPrices(Map<String, Price> byModel) {
    this.byModel = Map.copyOf(byModel);
  }

  /** The table shipped with Cortex. */
  public static ModelPrices shipped() {
    return Holder.SHIPPED;
  }

  private static final class Holder {
    static final ModelPrices SHIPPED = load();
  }

  private static ModelPrices load() {
    try (InputStream in = ModelPrices.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      JsonNode models = Json.mapper().readTree(in).path("models");
      Map<String, Price> byModel = new HashMap<>();
      for (Map.Entry<String, JsonNode> entry : models.properties()) {
        JsonNode price = entry.getValue();
        byModel.put(
            entry.getKey(),
            new Price(price.path("input").decimalValue(), price.path("output").decimalValue()));
      }
      return new ModelPrices(byModel);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  /** The price of {@code model}, by exact name or by its name without a snapshot suffix. */
  public Optional<Price> price(String model) {
    if (model == null) {
      return Optional.empty();
    }
    Price exact = byModel.get(model);
    if (exact != null) {
      return Optional.of(exact);
    }
    Matcher snapshot = SNAPSHOT.matcher(model);
    return snapshot.matches()
        ? Optional.ofNullable(byModel.get(snapshot.group(1)))
        : Optional.empty();
  }

  /** What the tokens cost in US dollars; empty when the model is not in the table. */
  public Optional<BigDecimal> usd(String model, long inputTokens, long outputTokens) {
    return price(model)
        .map(
            p ->
                p.input()
                    .multiply(BigDecimal.valueOf(inputTokens))
                    .add(p.output().multiply(BigDecimal.valueOf(outputTokens)))
                    .movePointLeft(6));
  }
}
