package dev.cortex.ext;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.client.AgentServerClient;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.storage.Database;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code ext} group: costs and budgets, the execution registry, the calling session's context,
 * and waitpoints. The cost, execution and context tools read the agent server's store directly,
 * through the same repositories as the server, and never write; the waitpoint tools go through the
 * server's webhook, which keeps the waitpoints and wakes the session.
 */
public final class ExtGroup {
  public static final String NAME = "ext";
  public static final String SERVER_KEY = "cortex-core";

  public static final GroupDescriptor DESCRIPTOR =
      GroupDescriptor.of(NAME, SERVER_KEY, "Costs, executions, context and waitpoints.");

  private ExtGroup() {}

  public static CapabilityGroup create(
      Supplier<Database> database,
      Supplier<Budgets> budgets,
      Clock clock,
      AgentServerClient agentServer) {
    Costs costs = new Costs(database, clock);
    Executions executions = new Executions(database, clock);
    List<ToolSpec> tools = new ArrayList<>();
    tools.add(new CostQuery(costs, budgets, clock).spec());
    tools.add(new QueryExecutions(executions).spec());
    tools.add(ContextTool.spec(agentServer));
    tools.addAll(new WaitTools(agentServer).specs());
    return DESCRIPTOR.group(
        tools,
        List.of(
            new dev.cortex.mcp.tool.PromptSpec(
                SCHEDULE_SKILL,
                "How to schedule runs with the cortex schedule command (timings, targets, policies,"
                    + " a pre-check), and what scheduleTaskId and callbackSource mean.",
                ExtGroup::scheduleSkill)),
        List.of(
            new dev.cortex.mcp.tool.ResourceSpec(
                SCHEDULE_SKILL_URI,
                "SKILL.md",
                "The cortex-schedule skill: scheduled and callback runs.",
                "text/markdown",
                ExtGroup::scheduleSkill)));
  }

  public static final String SCHEDULE_SKILL = "cortex-schedule";
  public static final String SCHEDULE_SKILL_URI = "cortex://skill/cortex-schedule/SKILL.md";

  /** The {@code cortex-schedule} skill, as served. */
  public static String scheduleSkill() {
    try (java.io.InputStream in = ExtGroup.class.getResourceAsStream("cortex-schedule.md")) {
      if (in == null) {
        throw new IllegalStateException("cortex-schedule.md is missing from the program");
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
