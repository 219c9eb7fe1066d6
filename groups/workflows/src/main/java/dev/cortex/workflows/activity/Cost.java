package dev.cortex.workflows.activity;

import java.math.BigDecimal;

/**
 * What an attempt cost: tokens in and out and money in US dollars. Only {@code llm} steps cost
 * anything; {@code usd} is null when the model is not in the price table, and {@code model} is null
 * for steps that call no model.
 */
public record Cost(long inputTokens, long outputTokens, BigDecimal usd, String model) {
  public static final Cost ZERO = new Cost(0, 0, BigDecimal.ZERO, null);

  public Cost {
    if (inputTokens < 0 || outputTokens < 0) {
      throw new IllegalArgumentException("token counts must not be negative");
    }
  }

  /** Whether the money is known. */
  public boolean priced() {
    return usd != null;
  }
}
