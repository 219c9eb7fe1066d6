package dev.cortex.models;

import java.net.URI;
import java.util.Objects;

/**
 * A place models are served from.
 *
 * @param name the provider's name in {@code cortex.toml} ({@code anthropic}, {@code openai}, or one
 *     of the user's)
 * @param baseUrl the API's base URL; the kind's path is appended ({@code /v1/messages} for
 *     Anthropic, {@code /chat/completions} for OpenAI-compatible servers, whose base URL ends in
 *     {@code /v1} by convention)
 * @param keyVariable the environment variable (and secrets-file entry) of its API key, or null for
 *     a server that needs none (a local llama.cpp, Ollama or vLLM)
 */
public record ModelProvider(String name, ProviderKind kind, URI baseUrl, String keyVariable) {
  public ModelProvider {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(baseUrl, "baseUrl");
  }
}
