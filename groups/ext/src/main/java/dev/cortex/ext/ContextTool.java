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

  static ToolSpec spec() {
    java.util.Map<String, Object> nullableText =
        Schema.nullable(Schema.string("Absent (null) when the session has none."));
    return ToolSpec.builder(NAME, ContextTool::handle)
        .title("This session's context")
        .description(
            "Returns the execution context of the session you run in: its sessionId, project,"
                + " backend, model, provider, thinking and mode; scheduleTaskId and callbackSource for runs a"
                + " schedule or a callback started; board for web sessions (null otherwise, and in"
                + " this version). Use it to learn your project before passing it to other tools"
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
                .required(
                    "board",
                    Schema.any(
                        "The board bound to a web session, as the workbench gave it, or null."))
                .build())
        .hints(ToolHints.readOnlyLocal())
        .build();
  }

  static Result handle(ToolCall call) {
    SessionIdentity session = call.context().session();
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
