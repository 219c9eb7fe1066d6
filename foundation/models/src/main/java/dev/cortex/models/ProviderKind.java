package dev.cortex.models;

import java.util.Locale;
import java.util.Optional;

/** The wire a provider speaks. */
public enum ProviderKind {
  /** The Anthropic Messages API ({@code POST /v1/messages}). */
  ANTHROPIC,
  /** The OpenAI chat completions API ({@code POST /chat/completions}), as many servers speak it. */
  OPENAI_COMPATIBLE;

  /** The kind's name in {@code cortex.toml}: {@code anthropic}, {@code openai-compatible}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Optional<ProviderKind> fromWireName(String name) {
    for (ProviderKind kind : values()) {
      if (kind.wireName().equals(name)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
