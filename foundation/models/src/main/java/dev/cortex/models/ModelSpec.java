package dev.cortex.models;

import java.util.List;
import java.util.Objects;

/**
 * A model a session or a step can name.
 *
 * @param name its name in Cortex (what {@code --model} takes)
 * @param provider the name of its provider
 * @param apiName its name on the provider's API (usually the same)
 * @param contextTokens the size of its context window, in tokens
 * @param maxOutputTokens the most tokens one answer may have
 * @param fallbacks models to try, in order, when this one stays rate-limited or overloaded after
 *     its retries
 */
public record ModelSpec(
    String name,
    String provider,
    String apiName,
    long contextTokens,
    int maxOutputTokens,
    List<String> fallbacks) {
  public ModelSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(apiName, "apiName");
    fallbacks = List.copyOf(fallbacks);
    if (contextTokens < 1 || maxOutputTokens < 1) {
      throw new IllegalArgumentException("token sizes must be positive");
    }
  }
}
