package dev.cortex.models;

import dev.cortex.base.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The price table of language models shipped as {@code llm-prices.json}, shared by the workflows'
 * llm steps and the agent server's cost records: US dollars per million tokens by model, for input,
 * output, cache reads (prompt cache hits) and cache writes (tokens written to the prompt cache). A
 * model matches its exact name, or a name plus a snapshot suffix ({@code -20250929}, {@code
 * -2024-08-06}, {@code -latest}); the file's {@code note} says the same.
 */
public final class ModelPrices {
  public static final String RESOURCE = "llm-prices.json";

  private static final Pattern SNAPSHOT =
      Pattern.compile("(.+)-(?:\\d{8}|\\d{4}-\\d{2}-\\d{2}|latest)");

  /**
   * A model's price in US dollars per million tokens.
   *
   * @param cacheRead a token read from the prompt cache
   * @param cacheWrite a token written to the prompt cache
   */
  public record Price(
      BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
    public Price {
      Objects.requireNonNull(input, "input");
      Objects.requireNonNull(output, "output");
      Objects.requireNonNull(cacheRead, "cacheRead");
      Objects.requireNonNull(cacheWrite, "cacheWrite");
    }

    /** What {@code tokens} cost at this price, in US dollars. */
    public BigDecimal usd(Tokens tokens) {
      return input
          .multiply(BigDecimal.valueOf(tokens.input()))
          .add(output.multiply(BigDecimal.valueOf(tokens.output())))
          .add(cacheRead.multiply(BigDecimal.valueOf(tokens.cacheRead())))
          .add(cacheWrite.multiply(BigDecimal.valueOf(tokens.cacheWrite())))
          .movePointLeft(6);
    }
  }

  /** The tokens of one use of a model, by kind. */
  public record Tokens(long input, long output, long cacheRead, long cacheWrite) {
    /** Tokens without any cache. */
    public static Tokens of(long input, long output) {
      return new Tokens(input, output, 0, 0);
    }

    /** The tokens of one model call. */
    public static Tokens of(Usage usage) {
      return new Tokens(usage.input(), usage.output(), usage.cacheRead(), usage.cacheWrite());
    }
  }

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
            new Price(
                rate(entry.getKey(), price, "input"),
                rate(entry.getKey(), price, "output"),
                rate(entry.getKey(), price, "cache_read"),
                rate(entry.getKey(), price, "cache_write")));
      }
      return new ModelPrices(byModel);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }

  private static BigDecimal rate(String model, JsonNode price, String kind) {
    JsonNode rate = price.path(kind);
    if (!rate.isNumber()) {
      throw new IllegalStateException(RESOURCE + ": " + model + " has no " + kind + " price");
    }
    return rate.decimalValue();
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

  /** What input and output tokens cost in US dollars; empty when the model is not in the table. */
  public Optional<BigDecimal> usd(String model, long inputTokens, long outputTokens) {
    return usd(model, Tokens.of(inputTokens, outputTokens));
  }

  /**
   * What the tokens cost in US dollars, each kind at its own rate; empty when the model is not in
   * the table.
   */
  public Optional<BigDecimal> usd(String model, Tokens tokens) {
    return price(model).map(p -> p.usd(tokens));
  }
}
