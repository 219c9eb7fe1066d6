package dev.cortex.mcp.tool;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.SessionMemory;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;

/**
 * A group's tools called as a client calls them (through {@link ToolInvoker}) by a session of the
 * agent server, with no server behind: what the schemas and records refuse comes back {@code
 * INVALID_ARGUMENT}, and a call that passed every check fails {@code UNAVAILABLE} (its client's
 * webhook port has nothing listening), which is how tests of argument checks tell the two apart.
 */
public final class OfflineTools {
  public static final JsonMapper JSON = JsonMapper.builder().build();

  /** The calling session. */
  public static final SessionIdentity SESSION =
      new SessionIdentity(
          "ses-0123456789abcdef",
          null,
          "command",
          null,
          null,
          null,
          "default",
          null,
          null,
          null,
          null);

  private final ToolInvoker invoker;

  public OfflineTools(List<ToolSpec> tools, CortexHome home) {
    this.invoker = new ToolInvoker(tools, home, Clock.systemUTC(), true);
  }

  /** A home in {@code dir}. */
  public static CortexHome home(Path dir) {
    return new CortexHome(dir, dir.resolve("data"));
  }

  /** Calls {@code tool} with {@code arguments} (JSON) as {@link #SESSION}. */
  public ToolOutcome call(String tool, String arguments) {
    return call(tool, arguments, SESSION);
  }

  /** Calls {@code tool} with {@code arguments} (JSON) as {@code session}. */
  public ToolOutcome call(String tool, String arguments, SessionIdentity session) {
    return invoker.call(
        tool,
        JSON.readTree(arguments),
        ToolContext.Caller.of(ToolContext.ProgressSink.NONE)
            .withSession(session, new SessionMemory()));
  }

  /** The code the call failed with, or {@code OK}. */
  public String code(String tool, String arguments) {
    return call(tool, arguments) instanceof ToolOutcome.Failure f ? f.code() : "OK";
  }

  /** {@code text} as a JSON string. */
  public static String q(String text) {
    return JSON.writeValueAsString(text);
  }
}
