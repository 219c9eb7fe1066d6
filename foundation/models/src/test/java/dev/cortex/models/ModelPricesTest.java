package dev.cortex.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The shipped price table: every kind of token at its own rate. */
class ModelPricesTest {
  private final ModelPrices prices = ModelPrices.shipped();

  @Test
  void usd_cacheReadsAndWrites_arePricedAtTheCacheRates() {
    // claude-sonnet-4-5, a million: $3 input, $15 output, $0.30 cache reads, $3.75 cache writes.
    BigDecimal expected =
        new BigDecimal("3.00")
            .add(new BigDecimal("1.50"))
            .add(new BigDecimal("0.60"))
            .add(new BigDecimal("1.50"));
    assertThat(
            prices.usd(
                "claude-sonnet-4-5-20250929",
                new ModelPrices.Tokens(1_000_000, 100_000, 2_000_000, 400_000)))
        .hasValueSatisfying(usd -> assertThat(usd).isEqualByComparingTo(expected));
    assertThat(prices.usd("gpt-4o", new ModelPrices.Tokens(0, 0, 1_000_000, 1_000_000)))
        .hasValueSatisfying(usd -> assertThat(usd).isEqualByComparingTo("3.75"));
  }

  @Test
  void usd_inputAndOutputOnly_isThePriceOfTheTwo() {
    assertThat(prices.usd("claude-haiku-4-5", 1000, 200))
        .hasValueSatisfying(usd -> assertThat(usd).isEqualByComparingTo("0.002"));
    assertThat(prices.usd("acme-7", 1000, 200)).isEmpty();
  }

  @Test
  void table_everyModelHasEveryRate_cacheReadsCheaperThanInput_writesNotCheaper() throws Exception {
    JsonNode table;
    try (InputStream in = ModelPrices.class.getResourceAsStream(ModelPrices.RESOURCE)) {
      table = Json.mapper().readTree(in);
    }
    assertThat(table.path("note").asString()).contains("cache_read").contains("cache_write");
    for (Map.Entry<String, JsonNode> entry : table.path("models").properties()) {
      ModelPrices.Price price = prices.price(entry.getKey()).orElseThrow();
      assertThat(entry.getValue().propertyNames())
          .as(entry.getKey())
          .containsExactlyInAnyOrder("input", "output", "cache_read", "cache_write");
      assertThat(price.cacheRead()).as(entry.getKey()).isPositive().isLessThan(price.input());
      assertThat(price.cacheWrite()).as(entry.getKey()).isGreaterThanOrEqualTo(price.input());
    }
  }

  @Test
  void price_matchesExactNamesAndDatedSnapshotsOnly() {
    ModelPrices prices = ModelPrices.shipped();

    assertThat(prices.price("claude-sonnet-4-5")).isPresent();
    assertThat(prices.price("claude-sonnet-4-5-20250929"))
        .isEqualTo(prices.price("claude-sonnet-4-5"));
    assertThat(prices.price("gpt-4o-2024-08-06")).isEqualTo(prices.price("gpt-4o"));
    assertThat(prices.price("claude-3-5-haiku-latest")).isEqualTo(prices.price("claude-3-5-haiku"));
    assertThat(prices.price("gpt-4o-mini").orElseThrow().input())
        .isEqualByComparingTo(new BigDecimal("0.15"));
    assertThat(prices.price("gpt-4o-audio-preview")).isEmpty();
    assertThat(prices.price("claude-sonnet-4-5-experimental")).isEmpty();
    assertThat(prices.price("acme-7")).isEmpty();
  }

  @Test
  void table_everyEntryHasPositivePrices_andTheFileDocumentsTheRule() throws Exception {
    JsonNode table;
    try (InputStream in = ModelPrices.class.getResourceAsStream(ModelPrices.RESOURCE)) {
      table = Json.mapper().readTree(in);
    }

    assertThat(table.path("note").asString()).contains("YYYYMMDD");
    assertThat(table.path("models").size()).isGreaterThan(10);
    for (Map.Entry<String, JsonNode> entry : table.path("models").properties()) {
      assertThat(entry.getValue().path("input").decimalValue()).as(entry.getKey()).isPositive();
      assertThat(entry.getValue().path("output").decimalValue()).as(entry.getKey()).isPositive();
    }
  }
}
