package dev.cortex.models;

import java.util.Locale;
import java.util.Optional;

/**
 * How hard a model thinks before it answers, as a session sets it ({@code CORTEX_THINKING}); each
 * provider maps it to its own parameter (Anthropic's thinking budget, an OpenAI-compatible {@code
 * reasoning_effort}).
 */
public enum Thinking {
  OFF,
  LOW,
  MEDIUM,
  HIGH;

  /** The level's name as settings, the command line and the environment write it. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The level named {@code name} (any case); empty for an unknown name. */
  public static Optional<Thinking> fromWireName(String name) {
    if (name == null) {
      return Optional.empty();
    }
    for (Thinking level : values()) {
      if (level.wireName().equals(name.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(level);
      }
    }
    return Optional.empty();
  }
}
