package dev.cortex.models;

import java.net.URI;
import java.util.List;

/**
 * The providers and models Cortex ships: Anthropic's and OpenAI's public APIs, and their current
 * models that the shipped price table prices, with their context windows and output limits as the
 * providers publish them.
 */
final class BuiltIns {
  private BuiltIns() {}

  static final List<ModelProvider> PROVIDERS =
      List.of(
          new ModelProvider(
              "anthropic",
              ProviderKind.ANTHROPIC,
              URI.create("https://api.anthropic.com"),
              "ANTHROPIC_API_KEY"),
          new ModelProvider(
              "openai",
              ProviderKind.OPENAI_COMPATIBLE,
              URI.create("https://api.openai.com/v1"),
              "OPENAI_API_KEY"));

  static final List<ModelSpec> MODELS =
      List.of(
          claude("claude-opus-4-5", 64_000),
          claude("claude-opus-4-1", 32_000),
          claude("claude-sonnet-4-5", 64_000),
          claude("claude-sonnet-4-0", 64_000),
          claude("claude-haiku-4-5", 64_000),
          gpt("gpt-5", 400_000, 128_000),
          gpt("gpt-5-mini", 400_000, 128_000),
          gpt("gpt-5-nano", 400_000, 128_000),
          gpt("gpt-4.1", 1_047_576, 32_768),
          gpt("gpt-4.1-mini", 1_047_576, 32_768),
          gpt("gpt-4.1-nano", 1_047_576, 32_768),
          gpt("gpt-4o", 128_000, 16_384),
          gpt("gpt-4o-mini", 128_000, 16_384));

  private static ModelSpec claude(String name, int maxOutput) {
    return new ModelSpec(name, "anthropic", name, 200_000, maxOutput, List.of());
  }

  private static ModelSpec gpt(String name, long context, int maxOutput) {
    return new ModelSpec(name, "openai", name, context, maxOutput, List.of());
  }
}
