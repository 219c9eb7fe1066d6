package dev.cortex.models;

import dev.cortex.base.Json;
import java.net.URI;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** What the client tests share: providers at a fake API, requests and JSON. */
final class Chats {
  private Chats() {}

  static ModelProvider anthropic(String url) {
    return new ModelProvider(
        "anthropic", ProviderKind.ANTHROPIC, URI.create(url), "ANTHROPIC_API_KEY");
  }

  static ModelProvider openai(String url) {
    return new ModelProvider(
        "openai", ProviderKind.OPENAI_COMPATIBLE, URI.create(url), "OPENAI_API_KEY");
  }

  static ChatRequest ask(String model, String text) {
    return new ChatRequest(
        model, null, List.of(ChatMessage.user(text)), List.of(), 1024, null, Thinking.OFF);
  }

  static JsonNode json(String text) {
    return Json.mapper().readTree(text);
  }

  static ToolDefinition readFile() {
    return new ToolDefinition(
        "read_file",
        "Reads a file.",
        json("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}"));
  }
}
