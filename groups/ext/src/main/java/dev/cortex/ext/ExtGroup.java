package dev.cortex.ext;

import dev.cortex.mcp.CapabilityGroup;
import dev.cortex.mcp.GroupDescriptor;
import dev.cortex.sessions.Budgets;
import dev.cortex.sessions.store.Costs;
import dev.cortex.sessions.store.Executions;
import dev.cortex.storage.Database;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code ext} group: costs and budgets, the execution registry, and the calling session's
 * context. Its tools read the agent server's store directly, through the same repositories as the
 * server, and never write.
 */
public final class ExtGroup {
  public static final String NAME = "ext";
  public static final String SERVER_KEY = "cortex-core";

  public static final GroupDescriptor DESCRIPTOR =
      GroupDescriptor.of(NAME, SERVER_KEY, "Costs, executions, context and waitpoints.");

  private ExtGroup() {}

  public static CapabilityGroup create(
      Supplier<Database> database, Supplier<Budgets> budgets, Clock clock) {
    Costs costs = new Costs(database, clock);
    Executions executions = new Executions(database, clock);
    return DESCRIPTOR.group(
        List.of(
            new CostQuery(costs, budgets, clock).spec(),
            new QueryExecutions(executions).spec(),
            ContextTool.spec()));
  }
}
