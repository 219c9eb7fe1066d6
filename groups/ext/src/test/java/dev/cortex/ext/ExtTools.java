package dev.cortex.ext;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.SessionMemory;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.client.AgentServerClient;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.storage.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ext group's tools as a client calls them (through {@link ToolInvoker}, output schemas
 * checked), over a real database in a directory of the test's; budgets the test may change.
 */
final class ExtTools {
  static final JsonMapper JSON = JsonMapper.builder().build();

  final CortexHome home;
  final Database database;
  final AtomicReference<Budgets> budgets = new AtomicReference<>(Budgets.NONE);
  final ToolInvoker invoker;

  ExtTools(CortexHome home, Database database, Clock clock, Map<String, String> env) {
    this.home = home;
    this.database = database;
    this.invoker =
        new ToolInvoker(
            ExtGroup.create(() -> database, budgets::get, clock, new AgentServerClient(env, home))
                .tools(),
            home,
            clock,
            true);
  }

  static CortexHome home(Path dir) {
    return new CortexHome(dir, dir.resolve("data"));
  }

  /** Calls {@code tool} outside any session. */
  ToolOutcome call(String tool, String arguments) {
    return call(tool, arguments, SessionIdentity.NONE);
  }

  /** Calls {@code tool} for {@code session}. */
  ToolOutcome call(String tool, String arguments, SessionIdentity session) {
    return invoker.call(
        tool,
        JSON.readTree(arguments),
        ToolContext.Caller.of(ToolContext.ProgressSink.NONE)
            .withSession(session, new SessionMemory()));
  }

  /** The identity an agent-server session passes to its MCP server. */
  static SessionIdentity session(String id, String project) {
    return new SessionIdentity(
        id, project, "command", null, null, null, "default", null, null, null, null);
  }

  static String code(ToolOutcome outcome) {
    return ((ToolOutcome.Failure) outcome).code();
  }
}
