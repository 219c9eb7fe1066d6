package dev.cortex.models;

import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The chunks of one streamed chat completion: {@code choices[0].delta} carries text ({@code
 * content}), reasoning and tool calls (by index: the id and name first, the arguments in pieces),
 * {@code finish_reason} why it stopped; a last chunk without choices carries the usage, and {@code
 * data: [DONE]} ends the stream. A chunk with an {@code error} ends the call classified.
 */
final class OpenAiStream implements Wire.Decoder {
  private final String api;
  private final String key;
  private final StreamListener listener;

  /** The parts in the order they began: {@code thinking}, {@code text}, {@code tool:INDEX}. */
  private final Map<String, Slot> slots = new LinkedHashMap<>();

  private String model;
  private Usage usage = Usage.NONE;
  private String finishReason;
  private boolean done;

  /** A part as it grows. */
  private static final class Slot {
    final StringBuilder text = new StringBuilder();
    String id = "";
    String name = "";
  }

  OpenAiStream(String api, String key, StreamListener listener) {
    this.api = api;
    this.key = key;
    this.listener = listener;
  }

  @Override
  public boolean event(String name, String data) throws ModelFailure {
    if (data.strip().equals("[DONE]")) {
      done = true;
      return true;
    }
    JsonNode chunk = parse(data);
    if (chunk.path("error").isObject()) {
      throw Failures.ofStreamError(api, chunk.path("error"), key);
    }
    model = Nodes.text(chunk, "model", model);
    if (chunk.path("usage").isObject()) {
      usage = OpenAiWire.usage(chunk.path("usage"));
    }
    JsonNode choice = chunk.path("choices").path(0);
    if (!choice.isObject()) {
      return false;
    }
    JsonNode delta = choice.path("delta");
    String reasoning = OpenAiWire.reasoning(delta);
    if (reasoning != null && !reasoning.isEmpty()) {
      slot("thinking").text.append(reasoning);
      listener.thinking(reasoning);
    }
    String content = Nodes.text(delta, "content", null);
    if (content != null && !content.isEmpty()) {
      slot("text").text.append(content);
      listener.text(content);
    }
    for (JsonNode call : delta.path("tool_calls")) {
      JsonNode index = call.path("index");
      if (!index.isIntegralNumber()) {
        throw Failures.badAnswer(api, "sent a tool call without an index");
      }
      Slot slot = slot("tool:" + index.asInt());
      slot.id = Nodes.text(call, "id", slot.id);
      JsonNode function = call.path("function");
      slot.name = Nodes.text(function, "name", slot.name);
      slot.text.append(Nodes.text(function, "arguments", ""));
    }
    finishReason = Nodes.text(choice, "finish_reason", finishReason);
    return false;
  }

  private Slot slot(String name) {
    return slots.computeIfAbsent(name, n -> new Slot());
  }

  private JsonNode parse(String data) throws ModelFailure {
    try {
      JsonNode chunk = Json.mapper().readTree(data);
      if (chunk != null && chunk.isObject()) {
        return chunk;
      }
    } catch (JacksonException e) {
      // reported below
    }
    throw Failures.badAnswer(api, "sent a chunk that is not a JSON object");
  }

  @Override
  public Reply reply(String requestedModel) throws ModelFailure {
    if (!done && finishReason == null) {
      throw new ModelFailure(
          ModelFailure.Kind.NETWORK,
          0,
          null,
          "the connection to the " + api + " API ended before its answer did");
    }
    List<ChatPart> parts = new ArrayList<>();
    for (Map.Entry<String, Slot> entry : slots.entrySet()) {
      Slot slot = entry.getValue();
      if (entry.getKey().equals("thinking")) {
        parts.add(new ChatPart.Thinking(slot.text.toString(), null));
      } else if (entry.getKey().equals("text")) {
        parts.add(new ChatPart.Text(slot.text.toString()));
      } else {
        parts.add(
            new ChatPart.ToolCall(
                slot.id, slot.name, OpenAiWire.arguments(api, slot.name, slot.text.toString())));
      }
    }
    return new Reply(
        parts,
        OpenAiWire.stop(finishReason),
        finishReason,
        usage,
        model == null ? requestedModel : model);
  }
}
