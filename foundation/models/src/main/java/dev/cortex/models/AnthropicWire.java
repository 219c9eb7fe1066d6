package dev.cortex.models;

import dev.cortex.base.Json;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Anthropic Messages API: {@code POST {base}/v1/messages} with {@code x-api-key} and {@code
 * anthropic-version}; content blocks of text, thinking (sent back with its signature), {@code
 * tool_use} and {@code tool_result}; a thinking budget per level.
 */
final class AnthropicWire implements Wire {
  static final AnthropicWire INSTANCE = new AnthropicWire();

  static final String VERSION = "2023-06-01";

  private AnthropicWire() {}

  /** The thinking budget of {@code level}, in tokens; 0 for {@link Thinking#OFF}. */
  static int budget(Thinking level) {
    return switch (level) {
      case OFF -> 0;
      case LOW -> 2_048;
      case MEDIUM -> 8_192;
      case HIGH -> 24_576;
    };
  }

  @Override
  public URI endpoint(URI baseUrl) {
    return Wire.append(baseUrl, "/v1/messages");
  }

  @Override
  public void authorize(HttpRequest.Builder request, String key) {
    if (key != null) {
      request.header("x-api-key", key);
    }
    request.header("anthropic-version", VERSION);
  }

  @Override
  public ObjectNode body(ChatRequest request, URI baseUrl, boolean stream) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("model", request.model());
    int budget = budget(request.thinking());
    int maxTokens = request.maxTokens();
    if (budget > 0 && maxTokens <= budget) {
      maxTokens = budget + maxTokens; // the budget counts against max_tokens
    }
    body.put("max_tokens", maxTokens);
    if (request.system() != null) {
      body.put("system", request.system());
    }
    ArrayNode messages = body.putArray("messages");
    for (ChatMessage message : request.messages()) {
      ObjectNode encoded = message(message);
      if (encoded != null) {
        messages.add(encoded);
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (ToolDefinition tool : request.tools()) {
        ObjectNode entry = tools.addObject();
        entry.put("name", tool.name());
        entry.put("description", tool.description());
        entry.set("input_schema", tool.inputSchema());
      }
    }
    if (budget > 0) {
      body.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
    } else if (request.temperature() != null) {
      body.put("temperature", request.temperature());
    }
    if (stream) {
      body.put("stream", true);
    }
    return body;
  }

  /**
   * A message: its text alone as a string, else its blocks (tool results first, as the API wants
   * them in a user message); null when nothing of it can be sent (thinking without a signature).
   */
  private static ObjectNode message(ChatMessage message) {
    ObjectNode encoded = Json.mapper().createObjectNode();
    encoded.put("role", message.role() == ChatMessage.Role.USER ? "user" : "assistant");
    List<ChatPart> parts = message.parts();
    if (parts.size() == 1 && parts.get(0) instanceof ChatPart.Text text) {
      encoded.put("content", text.text());
      return encoded;
    }
    List<ChatPart> ordered = new ArrayList<>();
    parts.stream().filter(ChatPart.ToolOutput.class::isInstance).forEach(ordered::add);
    parts.stream().filter(p -> !(p instanceof ChatPart.ToolOutput)).forEach(ordered::add);
    ArrayNode content = encoded.putArray("content");
    for (ChatPart part : ordered) {
      ObjectNode block = block(part);
      if (block != null) {
        content.add(block);
      }
    }
    return content.isEmpty() ? null : encoded;
  }

  private static ObjectNode block(ChatPart part) {
    ObjectNode block = Json.mapper().createObjectNode();
    if (part instanceof ChatPart.Text text) {
      block.put("type", "text").put("text", text.text());
    } else if (part instanceof ChatPart.Thinking thinking) {
      if (thinking.signature() == null) {
        return null; // the API refuses thinking it did not sign (another provider's)
      }
      block
          .put("type", "thinking")
          .put("thinking", thinking.text())
          .put("signature", thinking.signature());
    } else if (part instanceof ChatPart.ToolCall call) {
      block.put("type", "tool_use").put("id", call.id()).put("name", call.name());
      block.set("input", call.input());
    } else if (part instanceof ChatPart.ToolOutput output) {
      block
          .put("type", "tool_result")
          .put("tool_use_id", output.callId())
          .put("content", output.content());
      if (output.error()) {
        block.put("is_error", true);
      }
    }
    return block;
  }

  @Override
  public Wire.Decoder decoder(String api, String key, StreamListener listener) {
    return new AnthropicStream(api, key, listener);
  }

  @Override
  public Reply reply(JsonNode body, String api, String requestedModel) throws ModelFailure {
    if (body == null || !body.path("content").isArray()) {
      throw Failures.badAnswer(api, "answered HTTP 200 without an answer");
    }
    List<ChatPart> parts = new ArrayList<>();
    for (JsonNode block : body.path("content")) {
      switch (Nodes.text(block, "type", "text")) {
        case "text" -> {
          if (block.path("text").isString()) {
            parts.add(new ChatPart.Text(block.path("text").asString()));
          }
        }
        case "thinking" ->
            parts.add(
                new ChatPart.Thinking(
                    Nodes.text(block, "thinking", ""), Nodes.text(block, "signature", null)));
        case "tool_use" -> {
          JsonNode input = block.path("input");
          parts.add(
              new ChatPart.ToolCall(
                  Nodes.text(block, "id", ""),
                  Nodes.text(block, "name", ""),
                  input.isObject() ? input : Json.mapper().createObjectNode()));
        }
        default -> {
          // redacted thinking, server tools: nothing Cortex reads
        }
      }
    }
    String stopReason = Nodes.text(body, "stop_reason", null);
    return new Reply(
        parts,
        stop(stopReason),
        stopReason,
        usage(body.path("usage"), Usage.NONE),
        Nodes.text(body, "model", requestedModel));
  }

  /** Tokens as the API counts them; fields missing from {@code usage} keep {@code before}'s. */
  static Usage usage(JsonNode usage, Usage before) {
    return new Usage(
        Nodes.count(usage, "input_tokens", before.input()),
        Nodes.count(usage, "output_tokens", before.output()),
        Nodes.count(usage, "cache_read_input_tokens", before.cacheRead()),
        Nodes.count(usage, "cache_creation_input_tokens", before.cacheWrite()));
  }

  static Reply.Stop stop(String reason) {
    if (reason == null) {
      return Reply.Stop.OTHER;
    }
    return switch (reason) {
      case "end_turn" -> Reply.Stop.END_TURN;
      case "tool_use" -> Reply.Stop.TOOL_USE;
      case "max_tokens" -> Reply.Stop.MAX_TOKENS;
      default -> Reply.Stop.OTHER;
    };
  }
}
