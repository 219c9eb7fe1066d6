package dev.cortex.ext;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;

/** {@code cortex_context}: the execution context of the calling session. */
final class ContextTool {
  static final String NAME = "cortex_context";

  private ContextTool() {}

  record Result(
      @JsonProperty("sessionId") String sessionId,
      @JsonProperty("project") String project,
      @JsonProperty("backend") String backend,
      @JsonProperty("model") String model,
      @JsonProperty("provider") String provider,
      @JsonProperty("thinking") String thinking,
      @JsonProperty("mode") String mode,
      @JsonProperty("scheduleTaskId") String scheduleTaskId,
      @JsonProperty("callbackSource") String callbackSource,
      @JsonProperty("board") Object board) {}

  static ToolSpec spec(dev.cortex.server.client.AgentServerClient agentServer) {
    java.util.Map<String, Object> nullableText =
        Schema.nullable(Schema.string("Absent (null) when the session has none."));
    return ToolSpec.builder(NAME, call -> handle(call, agentServer))
        .title("This session's context")
        .description(
            "Returns the execution context of the session you run in: its sessionId, project,"
                + " backend, model, provider, thinking and mode; scheduleTaskId and callbackSource for runs a"
                + " schedule or a callback started; board ({id, title, dir}) for web sessions: the"
                + " board bound with board_open, null while none is; absent for other sessions. Use it to learn your project before passing it to other tools"
                + " (e.g. cost_query's projectId). Everything is null in a server that no session"
                + " started.")
        .input(Schema.object().build())
        .output(
            Schema.object()
                .required(
                    "sessionId",
                    Schema.nullable(Schema.string("The session's id, e.g. ses-3fa2c1d0e4b5a697.")))
                .required("project", nullableText)
                .required("backend", Schema.nullable(Schema.string("claude, api or command.")))
                .required("model", nullableText)
                .required(
                    "provider",
                    Schema.nullable(
                        Schema.string(
                            "Who serves the model: anthropic, or a provider of cortex.toml.")))
                .required("thinking", Schema.nullable(Schema.string("off, low, medium or high.")))
                .required("mode", nullableText)
                .required("scheduleTaskId", nullableText)
                .required("callbackSource", nullableText)
                .optional(
                    "board",
                    Schema.any(
                        "The board bound to a web session ({id, title, dir}), or null; absent"
                            + " for other sessions."))
                .build())
        .hints(ToolHints.readOnlyLocal())
        .build();
  }

  static Object handle(ToolCall call, dev.cortex.server.client.AgentServerClient agentServer) {
    SessionIdentity session = call.context().session();
    Result result = result(session);
    BoardOf board = session.sessionId() == null ? null : boardOf(call, agentServer);
    java.util.Map<String, Object> answer = new java.util.LinkedHashMap<>();
    answer.put("sessionId", result.sessionId());
    answer.put("project", result.project());
    answer.put("backend", result.backend());
    answer.put("model", result.model());
    answer.put("provider", result.provider());
    answer.put("thinking", result.thinking());
    answer.put("mode", result.mode());
    answer.put("scheduleTaskId", result.scheduleTaskId());
    answer.put("callbackSource", result.callbackSource());
    if (session.sessionId() == null) {
      // Outside a session everything is null, the board too.
      answer.put("board", null);
    } else if (board != null && board.web()) {
      answer.put("board", board.board());
    } else {
      answer.remove("board");
    }
    return answer;
  }

  /** What the agent server says of the session's board; null when it cannot say. */
  private static BoardOf boardOf(
      ToolCall call, dev.cortex.server.client.AgentServerClient agentServer) {
    try {
      tools.jackson.databind.JsonNode node =
          agentServer.post(
              dev.cortex.protocol.session.Web.BOARD_OF,
              new dev.cortex.protocol.session.Web.BoardOf(call.context().session().sessionId()),
              java.time.Duration.ofSeconds(10),
              call.context().cancellation(),
              event -> {});
      boolean web = node.path("web").asBoolean(false);
      tools.jackson.databind.JsonNode b = node.path("board");
      if (!web) {
        return new BoardOf(false, null);
      }
      if (b.isNull() || b.isMissingNode()) {
        return new BoardOf(true, null);
      }
      java.util.Map<String, Object> board = new java.util.LinkedHashMap<>();
      board.put("id", b.path("id").asString(""));
      board.put("title", b.path("title").asString(""));
      board.put("dir", b.path("dir").asString(""));
      return new BoardOf(true, board);
    } catch (RuntimeException e) {
      // No server, or one without web routes: the session is not a web session it knows.
      return null;
    }
  }

  record BoardOf(boolean web, java.util.Map<String, Object> board) {}

  static Result result(SessionIdentity session) {
    return new Result(
        session.sessionId(),
        session.project(),
        session.backend(),
        session.model(),
        session.provider(),
        session.thinking(),
        session.mode(),
        session.scheduleTaskId(),
        session.callbackSource(),
        null);
  }
}
