package dev.cortex.server.sessions.backend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * One turn of Claude Code's stream-json conversation: the user message lines Cortex writes, and the
 * events read from the lines Claude Code prints.
 *
 * <ul>
 *   <li>{@code system}/{@code init}: {@link BackendEvent.Started} with the session id (once); its
 *       {@code model} and {@code apiKeySource} are kept for the cost.
 *   <li>{@code assistant}: {@link BackendEvent.Text} for each text block, {@link
 *       BackendEvent.ToolUse} for each tool use (its input as JSON text).
 *   <li>{@code user}: {@link BackendEvent.ToolResult} for each tool result (content flattened to
 *       text); an echo of a message Cortex wrote ({@code isReplay}) says Claude Code took it in:
 *       {@link BackendEvent.Acked} for each message of that line (the first echo is preceded by a
 *       {@link BackendEvent.Handshake} that acknowledges, before which no message is injected).
 *   <li>{@code result}: its usage and cost are added up; when every message written has been taken
 *       in, {@link BackendEvent.Cost} then {@link BackendEvent.End} (failed on {@code is_error} or
 *       an {@code error_*} subtype), preceded by a {@link BackendEvent.Handshake} that does not
 *       acknowledge when Claude Code echoed nothing (its answer says it had the prompt). A message
 *       injected too late for the running query is run by Claude Code as a query of its own in the
 *       same process, and the turn ends at that query's {@code result}; while one is not echoed,
 *       the result is held back ({@link Read#held}).
 *   <li>{@code system} subtypes the person should know of ({@link #SHOWN_SYSTEM}) are a {@link
 *       BackendEvent.Note}; the known types and subtypes that carry nothing for the transcript
 *       ({@link #QUIET_TYPES}, {@link #QUIET_SYSTEM}) give nothing.
 *   <li>A line that is not JSON is a {@link BackendEvent.Note}; an event of a type or {@code
 *       system} subtype not known here is reported to the operator (the server's log, once per
 *       type) and not shown in the chat.
 * </ul>
 *
 * <p>Usage tokens are summed over the turn's results; {@code total_cost_usd} is Claude Code's
 * running total for its process, so the last one is the turn's. The mode is {@code plan} when the
 * init message says no API key is in use ({@code apiKeySource} {@code none}: the session runs on a
 * claude.ai login) and no cloud provider is selected, else {@code api}.
 */
final class ClaudeStream {
  /**
   * What one line gave.
   *
   * @param events the events, in order
   * @param end the end of the turn, or null
   * @param held when a {@code result} came while messages written to Claude Code were not echoed
   *     yet: the events that end the turn (a {@link BackendEvent.Cost}, then the {@link
   *     BackendEvent.End}) if Claude Code exits without another result; else null
   */
  record Read(List<BackendEvent> events, BackendEvent.End end, List<BackendEvent> held) {
    Read {
      events = List.copyOf(events);
      held = held == null ? null : List.copyOf(held);
    }

    Read(List<BackendEvent> events, BackendEvent.End end) {
      this(events, end, null);
    }
  }

  /**
   * Claude Code's event types (of {@code --output-format stream-json --verbose}, and of its Agent
   * SDK's message union) that carry nothing for the transcript: partial-message stream events,
   * rate-limit reports, the queued/started/completed lifecycle of each input line, progress and
   * summaries of tools, login state, suggestions, keep-alives and the control protocol's requests
   * and answers.
   */
  static final Set<String> QUIET_TYPES =
      Set.of(
          "stream_event",
          "rate_limit_event",
          "command_lifecycle",
          "keep_alive",
          "tool_progress",
          "tool_use_summary",
          "auth_status",
          "prompt_suggestion",
          "session_state_changed",
          "streamlined_text",
          "streamlined_tool_use_summary",
          "control_request",
          "control_response",
          "control_cancel_request");

  /**
   * {@code system} subtypes the person is told of, as a note: the conversation was compacted, a
   * status such as {@code compacting}, an API request being retried.
   */
  static final Set<String> SHOWN_SYSTEM = Set.of("compact_boundary", "status", "api_retry");

  /**
   * {@code system} subtypes that carry nothing for the transcript: hooks, background tasks, output
   * of local commands, informational lines, files saved, elicitations.
   */
  static final Set<String> QUIET_SYSTEM =
      Set.of(
          "hook_started",
          "hook_progress",
          "hook_response",
          "informational",
          "local_command_output",
          "task_started",
          "task_progress",
          "task_notification",
          "files_persisted",
          "elicitation_complete");

  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ClaudeStream.class);

  /** The unknown event types already reported, once each per process. */
  private static final Set<String> REPORTED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** Where an event of a type not known here is reported: the operator's log, not the chat. */
  private final java.util.function.Consumer<String> operator;

  /** Environment variables that route Claude Code to a cloud provider (billed per token). */
  private static final List<String> CLOUD_PROVIDERS =
      List.of("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY");

  private final boolean cloudProvider;
  private String model;
  private String sessionId;
  private String apiKeySource;
  private boolean echoes;

  /** The user message lines written and not echoed yet: their uuid, and the ids of the messages. */
  private final Map<String, List<String>> untaken = new LinkedHashMap<>();

  /** What the line being read holds back (see {@link Read#held}), or null. */
  private List<BackendEvent> held;

  private long inputTokens;
  private long outputTokens;
  private long cacheReadTokens;
  private long cacheWriteTokens;
  private Double usd;
  private boolean closed;

  /**
   * @param requestedModel the model the turn asked for (the cost's model until Claude Code names
   *     its own), or null
   * @param environment the turn's environment (to tell a cloud provider from a subscription)
   */
  ClaudeStream(String requestedModel, Map<String, String> environment) {
    this(
        requestedModel,
        environment,
        unknown -> {
          if (REPORTED.add(unknown)) {
            log.warn(
                "Claude Code printed an event of unknown type {}; not shown in sessions (once per"
                    + " type; a newer Claude Code than this server knows?)",
                unknown);
          }
        });
  }

  /**
   * @param operator receives a description of each event of a type not known here
   */
  ClaudeStream(
      String requestedModel,
      Map<String, String> environment,
      java.util.function.Consumer<String> operator) {
    this.operator = operator;
    this.model = requestedModel;
    this.cloudProvider = CLOUD_PROVIDERS.stream().anyMatch(name -> truthy(environment.get(name)));
  }

  /** The line that starts the turn: its messages as one prompt. */
  synchronized String promptLine(TurnRequest request) {
    return userLine(request.prompt(), request.messageIds(), false);
  }

  /**
   * The line that adds the message {@code id} to the running turn, or null once the turn is ending
   * (the message must then wait for the next turn).
   */
  synchronized String injectLine(String id, String text) {
    return closed ? null : userLine(text, List.of(id), true);
  }

  private String userLine(String text, List<String> ids, boolean steer) {
    String uuid = UUID.randomUUID().toString();
    untaken.put(uuid, List.copyOf(ids));
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("role", "user");
    message.put("content", text);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "user");
    line.put("message", message);
    line.put("parent_tool_use_id", null);
    line.put("session_id", sessionId == null ? "" : sessionId);
    line.put("uuid", uuid);
    if (steer) {
      line.put("priority", "next");
    }
    return BackendJson.MAPPER.writeValueAsString(line);
  }

  /**
   * Reads one line of Claude Code's output. Once it gave the end, no further message can be
   * injected and later lines give nothing.
   */
  synchronized Read accept(Lines.Line line) {
    List<BackendEvent> events = new ArrayList<>();
    if (closed) {
      return new Read(events, null);
    }
    held = null;
    BackendEvent.End end = read(line, events);
    closed = end != null;
    return new Read(events, end, held);
  }

  private BackendEvent.End read(Lines.Line line, List<BackendEvent> events) {
    if (line.text().isBlank()) {
      return null;
    }
    if (line.cut()) {
      events.add(
          new BackendEvent.Note(
              "Claude Code printed a line longer than "
                  + Lines.MAX_LINE_BYTES
                  + " bytes; it was cut and dropped"));
      return null;
    }
    JsonNode node;
    try {
      node = BackendJson.MAPPER.readTree(line.text());
    } catch (RuntimeException e) {
      events.add(
          new BackendEvent.Note(
              "Claude Code printed a line that is not JSON: " + preview(line.text())));
      return null;
    }
    if (node == null || !node.isObject()) {
      events.add(
          new BackendEvent.Note(
              "Claude Code printed a line that is not a JSON object: " + preview(line.text())));
      return null;
    }
    String type = node.path("type").asString("");
    switch (type) {
      case "system" -> system(node, events);
      case "assistant" -> assistant(node, events);
      case "user" -> user(node, events);
      case "result" -> {
        return result(node, events);
      }
      default -> {
        if (!QUIET_TYPES.contains(type)) {
          operator.accept("'" + preview(type) + "'");
        }
      }
    }
    return null;
  }

  private void system(JsonNode node, List<BackendEvent> events) {
    String subtype = node.path("subtype").asString("");
    if (QUIET_SYSTEM.contains(subtype)) {
      return;
    }
    if (!subtype.equals("init") && !SHOWN_SYSTEM.contains(subtype)) {
      operator.accept("'system' of subtype '" + preview(subtype) + "'");
      return;
    }
    if (!subtype.equals("init")) {
      String detail = node.path("status").asString(node.path("message").asString(""));
      if (subtype.equals("status") && detail.isBlank()) {
        return; // a status that went back to none
      }
      events.add(
          new BackendEvent.Note(
              "Claude Code: " + subtype + (detail.isBlank() ? "" : " (" + preview(detail) + ")")));
      return;
    }
    String id = node.path("session_id").asString(null);
    if (id != null && !id.equals(sessionId)) {
      sessionId = id;
      events.add(new BackendEvent.Started(id));
    }
    model = node.path("model").asString(model);
    apiKeySource = node.path("apiKeySource").asString(apiKeySource);
  }

  private void assistant(JsonNode node, List<BackendEvent> events) {
    JsonNode content = node.path("message").path("content");
    if (content.isString()) {
      events.add(new BackendEvent.Text(content.asString()));
      return;
    }
    for (JsonNode block : content) {
      String kind = block.path("type").asString("");
      switch (kind) {
        case "text" -> events.add(new BackendEvent.Text(block.path("text").asString("")));
        case "tool_use", "server_tool_use" ->
            events.add(
                new BackendEvent.ToolUse(
                    block.path("id").asString(null),
                    block.path("name").asString(""),
                    BackendJson.MAPPER.writeValueAsString(
                        block.has("input")
                            ? block.get("input")
                            : BackendJson.MAPPER.createObjectNode())));
        case "thinking", "redacted_thinking" -> {
          // the model's reasoning is not part of the transcript
        }
        default ->
            events.add(
                new BackendEvent.Note(
                    "Claude Code sent an assistant content block of unknown type '" + kind + "'"));
      }
    }
  }

  private void user(JsonNode node, List<BackendEvent> events) {
    if (node.path("isReplay").asBoolean(false)) {
      taken(node.path("uuid").asString(null), events);
      return;
    }
    for (JsonNode block : node.path("message").path("content")) {
      if (block.path("type").asString("").equals("tool_result")) {
        events.add(
            new BackendEvent.ToolResult(
                block.path("tool_use_id").asString(null),
                flatten(block.path("content")),
                block.path("is_error").asBoolean(false)));
      }
    }
  }

  /**
   * Claude Code took a written message in: the one with {@code uuid}, or the oldest not echoed yet
   * when the echo carries no uuid. Its echo acknowledges the messages of that line; an echo of a
   * uuid Cortex did not write, or one echoed before, acknowledges nothing. The first echo also says
   * that Claude Code echoes.
   */
  private void taken(String uuid, List<BackendEvent> events) {
    if (!echoes) {
      echoes = true;
      events.add(new BackendEvent.Handshake(true));
    }
    List<String> ids;
    if (uuid == null) {
      ids = untaken.isEmpty() ? null : untaken.remove(untaken.keySet().iterator().next());
    } else {
      ids = untaken.remove(uuid);
    }
    if (ids != null) {
      ids.forEach(id -> events.add(new BackendEvent.Acked(id)));
    }
  }

  private BackendEvent.End result(JsonNode node, List<BackendEvent> events) {
    JsonNode usage = node.path("usage");
    inputTokens += usage.path("input_tokens").asLong(0);
    outputTokens += usage.path("output_tokens").asLong(0);
    cacheReadTokens += usage.path("cache_read_input_tokens").asLong(0);
    cacheWriteTokens += usage.path("cache_creation_input_tokens").asLong(0);
    if (node.path("total_cost_usd").isNumber()) {
      usd = node.path("total_cost_usd").asDouble();
    }
    BackendEvent.Cost cost =
        new BackendEvent.Cost(
            model,
            inputTokens,
            outputTokens,
            cacheReadTokens,
            cacheWriteTokens,
            usd,
            "none".equals(apiKeySource) && !cloudProvider ? "plan" : "api");
    BackendEvent.End end = end(node);
    if (echoes && !untaken.isEmpty()) {
      // A message written and not echoed yet may still be taken in, as a query of its own.
      held = List.of(cost, end);
      return null;
    }
    if (!echoes) {
      // A Claude Code that echoes nothing answered its prompt: it had it.
      events.add(new BackendEvent.Handshake(false));
    }
    events.add(cost);
    return end;
  }

  private static BackendEvent.End end(JsonNode node) {
    String subtype = node.path("subtype").asString("");
    String text = node.path("result").isString() ? node.path("result").asString() : null;
    if (subtype.equals("success") && !node.path("is_error").asBoolean(false)) {
      return BackendEvent.End.completed(text == null ? "" : text);
    }
    if (subtype.equals("success") || subtype.isEmpty()) {
      return BackendEvent.End.failed(
          text == null || text.isBlank() ? "Claude Code reported an error" : text);
    }
    String detail = errors(node.path("errors"));
    if (detail.isBlank() && text != null) {
      detail = text;
    }
    return BackendEvent.End.failed(
        "Claude Code ended the turn with " + subtype + (detail.isBlank() ? "" : ": " + detail));
  }

  private static String errors(JsonNode errors) {
    List<String> parts = new ArrayList<>();
    for (JsonNode error : errors) {
      parts.add(error.isString() ? error.asString() : BackendJson.MAPPER.writeValueAsString(error));
    }
    return String.join("; ", parts);
  }

  /** A tool result's content as text: text blocks joined by newlines, others named or as JSON. */
  static String flatten(JsonNode content) {
    if (content.isMissingNode() || content.isNull()) {
      return "";
    }
    if (content.isString()) {
      return content.asString();
    }
    if (!content.isArray()) {
      return BackendJson.MAPPER.writeValueAsString(content);
    }
    List<String> parts = new ArrayList<>();
    for (JsonNode block : content) {
      String kind = block.path("type").asString("");
      switch (kind) {
        case "text" -> parts.add(block.path("text").asString(""));
        case "image" -> parts.add("[image]");
        case "document" -> parts.add("[document]");
        default -> parts.add(BackendJson.MAPPER.writeValueAsString(block));
      }
    }
    return String.join("\n", parts);
  }

  private static boolean truthy(String value) {
    return value != null
        && !value.isBlank()
        && !value.equals("0")
        && !value.equalsIgnoreCase("false");
  }

  private static String preview(String text) {
    return text.length() > 200 ? text.substring(0, 200) + "…" : text;
  }
}
