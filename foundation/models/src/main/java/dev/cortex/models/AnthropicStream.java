package dev.cortex.models;

import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The events of one streamed Messages answer: {@code message_start} (model, input and cache
 * tokens), content blocks started, grown by deltas (text, partial tool input JSON, thinking and its
 * signature) and stopped, {@code message_delta} (stop reason, output tokens), {@code message_stop};
 * {@code ping} is skipped and {@code error} ends the call classified.
 */
final class AnthropicStream implements Wire.Decoder {
  private final String api;
  private final String key;
  private final StreamListener listener;
  private final Map<Integer, Block> blocks = new TreeMap<>();
  private final List<ChatPart> parts = new ArrayList<>();
  private String model;
  private Usage usage = Usage.NONE;
  private String stopReason;
  private boolean stopped;

  /** A content block as it grows. */
  private static final class Block {
    final String type;
    final String id;
    final String name;
    final StringBuilder text = new StringBuilder();
    String signature;
    boolean done;

    Block(String type, String id, String name) {
      this.type = type;
      this.id = id;
      this.name = name;
    }
  }

  AnthropicStream(String api, String key, StreamListener listener) {
    this.api = api;
    this.key = key;
    this.listener = listener;
  }

  @Override
  public boolean event(String name, String data) throws ModelFailure {
    if (name.equals("ping")) {
      return false;
    }
    JsonNode event = parse(data);
    String type = Nodes.text(event, "type", name);
    switch (type) {
      case "message_start" -> {
        JsonNode message = event.path("message");
        model = Nodes.text(message, "model", null);
        usage = AnthropicWire.usage(message.path("usage"), usage);
      }
      case "content_block_start" -> start(event);
      case "content_block_delta" -> delta(event);
      case "content_block_stop" -> stop(event);
      case "message_delta" -> {
        stopReason = Nodes.text(event.path("delta"), "stop_reason", stopReason);
        usage = AnthropicWire.usage(event.path("usage"), usage);
      }
      case "message_stop" -> {
        stopped = true;
        return true;
      }
      case "error" -> throw Failures.ofStreamError(api, event.path("error"), key);
      default -> {
        // events added to the API later
      }
    }
    return false;
  }

  private void start(JsonNode event) throws ModelFailure {
    int index = index(event);
    JsonNode block = event.path("content_block");
    Block started =
        new Block(
            Nodes.text(block, "type", ""),
            Nodes.text(block, "id", ""),
            Nodes.text(block, "name", ""));
    if (started.type.equals("text")) {
      String text = Nodes.text(block, "text", "");
      started.text.append(text);
      if (!text.isEmpty()) {
        listener.text(text);
      }
    } else if (started.type.equals("thinking")) {
      started.text.append(Nodes.text(block, "thinking", ""));
      started.signature = Nodes.text(block, "signature", null);
    } else if (started.type.equals("tool_use")) {
      JsonNode input = block.path("input");
      if (input.isObject() && !input.isEmpty()) {
        started.text.append(Json.write(input)); // a whole input, no deltas to follow
      }
    }
    blocks.put(index, started);
  }

  private void delta(JsonNode event) throws ModelFailure {
    Block block = blocks.get(index(event));
    if (block == null || block.done) {
      throw Failures.badAnswer(api, "sent a delta of a content block it did not start");
    }
    JsonNode delta = event.path("delta");
    switch (Nodes.text(delta, "type", "")) {
      case "text_delta" -> {
        String text = Nodes.text(delta, "text", "");
        block.text.append(text);
        listener.text(text);
      }
      case "input_json_delta" -> block.text.append(Nodes.text(delta, "partial_json", ""));
      case "thinking_delta" -> {
        String text = Nodes.text(delta, "thinking", "");
        block.text.append(text);
        listener.thinking(text);
      }
      case "signature_delta" -> block.signature = Nodes.text(delta, "signature", block.signature);
      default -> {
        // deltas of blocks Cortex does not read (citations)
      }
    }
  }

  private void stop(JsonNode event) throws ModelFailure {
    Block block = blocks.get(index(event));
    if (block == null || block.done) {
      throw Failures.badAnswer(api, "stopped a content block it did not start");
    }
    block.done = true;
    switch (block.type) {
      case "text" -> {
        if (block.text.length() > 0) {
          parts.add(new ChatPart.Text(block.text.toString()));
        }
      }
      case "thinking" -> parts.add(new ChatPart.Thinking(block.text.toString(), block.signature));
      case "tool_use" -> parts.add(new ChatPart.ToolCall(block.id, block.name, input(block)));
      default -> {
        // redacted thinking and server tools' blocks: nothing Cortex reads
      }
    }
  }

  private JsonNode input(Block block) throws ModelFailure {
    String text = block.text.toString().strip();
    if (text.isEmpty()) {
      return Json.mapper().createObjectNode();
    }
    JsonNode input = parseOrNull(text);
    if (input == null || !input.isObject()) {
      throw Failures.badAnswer(
          api, "sent arguments of tool '" + block.name + "' that are not a JSON object");
    }
    return input;
  }

  private int index(JsonNode event) throws ModelFailure {
    JsonNode index = event.path("index");
    if (!index.isIntegralNumber()) {
      throw Failures.badAnswer(api, "sent a content block event without an index");
    }
    return index.asInt();
  }

  private JsonNode parse(String data) throws ModelFailure {
    JsonNode event = parseOrNull(data);
    if (event == null || !event.isObject()) {
      throw Failures.badAnswer(api, "sent an event that is not a JSON object");
    }
    return event;
  }

  private static JsonNode parseOrNull(String text) {
    try {
      return Json.mapper().readTree(text);
    } catch (JacksonException e) {
      return null;
    }
  }

  @Override
  public Reply reply(String requestedModel) throws ModelFailure {
    if (!stopped) {
      throw new ModelFailure(
          ModelFailure.Kind.NETWORK,
          0,
          null,
          "the connection to the " + api + " API ended before its answer did");
    }
    return new Reply(
        parts,
        AnthropicWire.stop(stopReason),
        stopReason,
        usage,
        model == null ? requestedModel : model);
  }
}
