package dev.cortex.workflows.run;

import dev.cortex.workflows.activity.Cost;
import java.math.BigDecimal;

/**
 * What a step or a whole run cost: tokens and US dollars. {@code usd} sums the priced parts; {@code
 * unpriced} counts model calls whose model is not in the price table (their money is unknown).
 */
public record RunCost(BigDecimal usd, long inputTokens, long outputTokens, int unpriced) {
  public static final RunCost ZERO = new RunCost(BigDecimal.ZERO, 0, 0, 0);

  public static RunCost of(Cost cost) {
    return new RunCost(
        cost.priced() ? cost.usd() : BigDecimal.ZERO,
        cost.inputTokens(),
        cost.outputTokens(),
        cost.priced() ? 0 : 1);
  }

  public RunCost plus(RunCost other) {
    return new RunCost(
        usd.add(other.usd),
        inputTokens + other.inputTokens,
        outputTokens + other.outputTokens,
        unpriced + other.unpriced);
  }
}
