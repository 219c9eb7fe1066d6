package dev.cortex.server.loop;

import dev.cortex.base.Json;
import dev.cortex.models.ChatMessage;
import dev.cortex.models.ChatPart;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the model of an {@code api} session has heard and said, kept between turns (and across
 * restarts of the server) by {@link Conversations}. It also remembers which inbox messages it took,
 * so that a message offered again after a crash (taken, but not yet acknowledged) is acknowledged
 * without being heard twice.
 */
final class Conversation {
  /** How many taken message ids are remembered: far more than one turn can be offered. */
  static final int TAKEN_LIMIT = 1024;

  private final String id;
  private final List<ChatMessage> messages;
  private final LinkedHashSet<String> taken;

  Conversation(String id, List<ChatMessage> messages, Set<String> taken) {
    this.id = Objects.requireNonNull(id, "id");
    this.messages = new ArrayList<>(messages);
    this.taken = new LinkedHashSet<>(taken);
  }

  String id() {
    return id;
  }

  List<ChatMessage> messages() {
    return List.copyOf(messages);
  }

  int size() {
    return messages.size();
  }

  boolean took(String messageId) {
    return taken.contains(messageId);
  }

  /**
   * Adds what the person (or a wake, or a tool's output) says. Text joins the user message the
   * conversation ends with, if it does: a model answers one user message per call.
   */
  void user(List<ChatPart> parts, String messageId) {
    if (!messages.isEmpty() && messages.get(messages.size() - 1).role() == ChatMessage.Role.USER) {
      List<ChatPart> joined = new ArrayList<>(messages.get(messages.size() - 1).parts());
      joined.addAll(parts);
      messages.set(messages.size() - 1, ChatMessage.user(joined));
    } else {
      messages.add(ChatMessage.user(parts));
    }
    if (messageId != null) {
      taken.add(messageId);
      while (taken.size() > TAKEN_LIMIT) {
        taken.remove(taken.iterator().next());
      }
    }
  }

  void assistant(List<ChatPart> parts) {
    messages.add(ChatMessage.assistant(parts));
  }

  /** Whether the model owes an answer: the conversation ends with a user message. */
  boolean awaitsAnswer() {
    return !messages.isEmpty() && messages.get(messages.size() - 1).role() == ChatMessage.Role.USER;
  }

  /** Replaces the whole history (after compaction). */
  void replace(List<ChatMessage> compacted) {
    messages.clear();
    messages.addAll(compacted);
  }

  /** The conversation as it is stored. */
  JsonNode toJson() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("version", 1);
    root.put("id", id);
    ArrayNode list = root.putArray("messages");
    for (ChatMessage message : messages) {
      ObjectNode m = list.addObject();
      m.put("role", message.role() == ChatMessage.Role.USER ? "user" : "assistant");
      ArrayNode parts = m.putArray("parts");
      for (ChatPart part : message.parts()) {
        ObjectNode p = parts.addObject();
        if (part instanceof ChatPart.Text t) {
          p.put("type", "text").put("text", t.text());
        } else if (part instanceof ChatPart.Thinking t) {
          p.put("type", "thinking").put("text", t.text()).put("signature", t.signature());
        } else if (part instanceof ChatPart.ToolCall c) {
          p.put("type", "tool_call").put("id", c.id()).put("name", c.name());
          p.set("input", c.input());
        } else if (part instanceof ChatPart.ToolOutput o) {
          p.put("type", "tool_output")
              .put("call_id", o.callId())
              .put("content", o.content())
              .put("error", o.error());
        }
      }
    }
    ArrayNode ids = root.putArray("taken");
    taken.forEach(ids::add);
    return root;
  }

  /**
   * The conversation stored as {@code json}.
   *
   * @throws IllegalArgumentException when it is not one
   */
  static Conversation fromJson(JsonNode json) {
    if (json == null || json.path("version").asInt(0) != 1 || !json.path("id").isString()) {
      throw new IllegalArgumentException("not a stored conversation");
    }
    List<ChatMessage> messages = new ArrayList<>();
    for (JsonNode m : json.path("messages")) {
      List<ChatPart> parts = new ArrayList<>();
      for (JsonNode p : m.path("parts")) {
        parts.add(
            switch (p.path("type").asString("")) {
              case "text" -> new ChatPart.Text(p.path("text").asString(""));
              case "thinking" ->
                  new ChatPart.Thinking(
                      p.path("text").asString(""),
                      p.path("signature").isString() ? p.path("signature").asString() : null);
              case "tool_call" ->
                  new ChatPart.ToolCall(
                      p.path("id").asString(""),
                      p.path("name").asString(""),
                      p.path("input").isObject()
                          ? p.path("input")
                          : Json.mapper().createObjectNode());
              case "tool_output" ->
                  new ChatPart.ToolOutput(
                      p.path("call_id").asString(""),
                      p.path("content").asString(""),
                      p.path("error").asBoolean(false));
              default -> throw new IllegalArgumentException("unknown part " + p.path("type"));
            });
      }
      if (!parts.isEmpty()) {
        messages.add(
            new ChatMessage(
                m.path("role").asString("").equals("assistant")
                    ? ChatMessage.Role.ASSISTANT
                    : ChatMessage.Role.USER,
                parts));
      }
    }
    Set<String> taken = new LinkedHashSet<>();
    json.path("taken").forEach(t -> taken.add(t.asString()));
    return new Conversation(json.path("id").asString(), messages, taken);
  }
}
