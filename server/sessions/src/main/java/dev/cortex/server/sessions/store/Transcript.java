package dev.cortex.server.sessions.store;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What a transcript holds, and the bodies of its entries as the store keeps them. */
public final class Transcript {
  private Transcript() {}

  /** The kinds of transcript entries. */
  public enum Kind {
    /** A message from the session's human (or a wake, later). */
    USER,
    /** Text the agent said. */
    ASSISTANT,
    /** The agent called a tool. */
    TOOL_USE,
    /** A tool's answer. */
    TOOL_RESULT,
    /** Something the server says about the session: a turn failed, was stopped, interrupted. */
    SYSTEM,
    /** Something the backend said outside the conversation (a malformed line). */
    NOTE,
    /**
     * Something delivered into the conversation by a tool of the {@code web} group (files, a view,
     * decisions, a board): its ids, names, sizes and paths, never the bytes.
     */
    ATTACHMENT;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Kind of(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }
  }

  /**
   * One entry.
   *
   * @param seq its place in the session's transcript, from 1
   * @param executionId the turn it belongs to, if any
   * @param body its content as JSON text (e.g. {@code {"text": ...}}, {@code
   *     {"id","name","input"}})
   */
  public record Entry(long seq, String executionId, Kind kind, String body, Instant at) {}

  /** The body of a message from the session's human (or a wake): {@code {"text", "source"}}. */
  static String user(String text, String source) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("text", text);
    body.put("source", source);
    return StoreJson.MAPPER.writeValueAsString(body);
  }

  /** The body of an entry that is a sentence: {@code {"text"}}. */
  public static String text(String text) {
    return StoreJson.MAPPER.writeValueAsString(Map.of("text", text));
  }

  /**
   * The body of a tool call: {@code {"id", "name", "input"}}.
   *
   * @param input the arguments as JSON text, kept as JSON (or as the text when it is none)
   */
  public static String toolUse(String id, String name, String input) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", id);
    body.put("name", name);
    body.put("input", json(input));
    return StoreJson.MAPPER.writeValueAsString(body);
  }

  /** The body of a tool's answer: {@code {"tool_use_id", "content", "is_error"}}. */
  public static String toolResult(String toolUseId, String content, boolean error) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("tool_use_id", toolUseId);
    body.put("content", content);
    body.put("is_error", error);
    return StoreJson.MAPPER.writeValueAsString(body);
  }

  private static Object json(String text) {
    try {
      return StoreJson.MAPPER.readTree(text == null ? "null" : text);
    } catch (RuntimeException e) {
      return text;
    }
  }
}
