package dev.cortex.workflows;

import dev.cortex.mcp.CapabilityGroup;
import dev.cortex.storage.Area;
import dev.cortex.workflows.run.RunStore;
import java.util.function.Supplier;

/**
 * The {@code workflows} group: preflight, run and inspect saved workflows. Nothing is opened until
 * a tool needs it.
 */
public final class WorkflowsGroup {
  public static final String NAME = "workflows";
  public static final String SERVER_KEY = "cortex";

  private WorkflowsGroup() {}

  public static CapabilityGroup create(Supplier<Workflows> workflows) {
    return CapabilityGroup.ofTools(
        NAME,
        SERVER_KEY,
        "Saved workflows: preflight, run and inspect them, each run traced step by step.",
        new WorkflowTools(workflows).specs());
  }

  /** The workflows area's tables, for whoever opens the shared database. */
  public static Area storageArea() {
    return RunStore.area();
  }
}
