package dev.cortex.models;

import dev.cortex.base.Json;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAI chat completions API, as OpenAI and many other servers speak it ({@code POST
 * {base}/chat/completions}, {@code Authorization: Bearer} when there is a key): a system message,
 * user and assistant messages, the assistant's {@code tool_calls} and {@code role: tool} messages
 * with the outputs; {@code reasoning_effort} for thinking. The model's reasoning, where a server
 * streams it ({@code reasoning_content}), is heard as thinking and never sent back.
 */
final class OpenAiWire implements Wire {
  static final OpenAiWire INSTANCE = new OpenAiWire();

  private OpenAiWire() {}

  @Override
  public URI endpoint(URI baseUrl) {
    return Wire.append(baseUrl, "/chat/completions");
  }

  @Override
  public void authorize(HttpRequest.Builder request, String key) {
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
  }

  /**
   * The name of the output limit: OpenAI's own API refuses {@code max_tokens} for its reasoning
   * models and takes {@code max_completion_tokens} for all; other servers read {@code max_tokens}.
   */
  static String limitField(URI baseUrl) {
    String host = baseUrl.getHost() == null ? "" : baseUrl.getHost().toLowerCase(Locale.ROOT);
    return host.equals("api.openai.com") ? "max_completion_tokens" : "max_tokens";
  }

  @Override
  public ObjectNode body(ChatRequest request, URI baseUrl, boolean stream) {
    ObjectNode body = Json.mapper().createObjectNode();
    body.put("model", request.model());
    body.put(limitField(baseUrl), request.maxTokens());
    ArrayNode messages = body.putArray("messages");
    if (request.system() != null) {
      messages.addObject().put("role", "system").put("content", request.system());
    }
    for (ChatMessage message : request.messages()) {
      if (message.role() == ChatMessage.Role.USER) {
        user(message, messages);
      } else {
        assistant(message, messages);
      }
    }
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      for (ToolDefinition tool : request.tools()) {
        ObjectNode function = tools.addObject().put("type", "function").putObject("function");
        function.put("name", tool.name());
        function.put("description", tool.description());
        function.set("parameters", tool.inputSchema());
      }
    }
    if (request.temperature() != null) {
      body.put("temperature", request.temperature());
    }
    if (request.thinking() != Thinking.OFF) {
      body.put("reasoning_effort", request.thinking().wireName());
    }
    if (stream) {
      body.put("stream", true);
      body.putObject("stream_options").put("include_usage", true);
    }
    return body;
  }

  /** Tool outputs as {@code tool} messages (they answer the calls before), then the text. */
  private static void user(ChatMessage message, ArrayNode messages) {
    List<String> texts = new ArrayList<>();
    for (ChatPart part : message.parts()) {
      if (part instanceof ChatPart.ToolOutput output) {
        messages
            .addObject()
            .put("role", "tool")
            .put("tool_call_id", output.callId())
            .put("content", output.content());
      } else if (part instanceof ChatPart.Text text) {
        texts.add(text.text());
      }
    }
    if (texts.size() == 1) {
      messages.addObject().put("role", "user").put("content", texts.get(0));
    } else if (!texts.isEmpty()) {
      ArrayNode content = messages.addObject().put("role", "user").putArray("content");
      texts.forEach(text -> content.addObject().put("type", "text").put("text", text));
    }
  }

  private static void assistant(ChatMessage message, ArrayNode messages) {
    StringBuilder text = new StringBuilder();
    ArrayNode calls = Json.mapper().createArrayNode();
    for (ChatPart part : message.parts()) {
      if (part instanceof ChatPart.Text t) {
        text.append(t.text());
      } else if (part instanceof ChatPart.ToolCall call) {
        ObjectNode entry = calls.addObject().put("id", call.id()).put("type", "function");
        entry
            .putObject("function")
            .put("name", call.name())
            .put("arguments", Json.write(call.input()));
      }
    }
    if (text.length() == 0 && calls.isEmpty()) {
      return; // thinking alone: nothing this API takes back
    }
    ObjectNode encoded = messages.addObject().put("role", "assistant");
    if (text.length() > 0) {
      encoded.put("content", text.toString());
    } else {
      encoded.putNull("content");
    }
    if (!calls.isEmpty()) {
      encoded.set("tool_calls", calls);
    }
  }

  @Override
  public Wire.Decoder decoder(String api, String key, StreamListener listener) {
    return new OpenAiStream(api, key, listener);
  }

  @Override
  public Reply reply(JsonNode body, String api, String requestedModel) throws ModelFailure {
    JsonNode choice = body == null ? null : body.path("choices").path(0);
    if (choice == null || !choice.isObject()) {
      throw Failures.badAnswer(api, "answered HTTP 200 without an answer");
    }
    JsonNode message = choice.path("message");
    List<ChatPart> parts = new ArrayList<>();
    String reasoning = reasoning(message);
    if (reasoning != null && !reasoning.isEmpty()) {
      parts.add(new ChatPart.Thinking(reasoning, null));
    }
    String content = Nodes.text(message, "content", "");
    if (!content.isEmpty()) {
      parts.add(new ChatPart.Text(content));
    }
    for (JsonNode call : message.path("tool_calls")) {
      JsonNode function = call.path("function");
      String name = Nodes.text(function, "name", "");
      parts.add(
          new ChatPart.ToolCall(
              Nodes.text(call, "id", ""),
              name,
              arguments(api, name, Nodes.text(function, "arguments", ""))));
    }
    String finish = Nodes.text(choice, "finish_reason", null);
    return new Reply(
        parts,
        stop(finish),
        finish,
        usage(body.path("usage")),
        Nodes.text(body, "model", requestedModel));
  }

  /** The reasoning a server gives beside the answer, under either of its usual names. */
  static String reasoning(JsonNode messageOrDelta) {
    String reasoning = Nodes.text(messageOrDelta, "reasoning_content", null);
    return reasoning != null ? reasoning : Nodes.text(messageOrDelta, "reasoning", null);
  }

  /** A tool call's arguments, a JSON object in text; empty text is no arguments. */
  static JsonNode arguments(String api, String tool, String text) throws ModelFailure {
    if (text.isBlank()) {
      return Json.mapper().createObjectNode();
    }
    try {
      JsonNode arguments = Json.mapper().readTree(text);
      if (arguments != null && arguments.isObject()) {
        return arguments;
      }
    } catch (JacksonException e) {
      // reported below
    }
    throw Failures.badAnswer(
        api, "sent arguments of tool '" + tool + "' that are not a JSON object");
  }

  /** Tokens: the prompt's cached part counts as cache reads, the rest as input. */
  static Usage usage(JsonNode usage) {
    long prompt = Nodes.count(usage, "prompt_tokens", 0);
    long cached = Nodes.count(usage.path("prompt_tokens_details"), "cached_tokens", 0);
    return new Usage(
        Math.max(0, prompt - cached), Nodes.count(usage, "completion_tokens", 0), cached, 0);
  }

  static Reply.Stop stop(String reason) {
    if (reason == null) {
      return Reply.Stop.OTHER;
    }
    return switch (reason) {
      case "stop" -> Reply.Stop.END_TURN;
      case "tool_calls", "function_call" -> Reply.Stop.TOOL_USE;
      case "length" -> Reply.Stop.MAX_TOKENS;
      default -> Reply.Stop.OTHER;
    };
  }
}
