package dev.cortex.workflows;

import dev.cortex.mcp.CapabilityGroup;
import dev.cortex.mcp.GroupDescriptor;
import dev.cortex.storage.Area;
import dev.cortex.workflows.consent.ConsentPolicy;
import dev.cortex.workflows.run.RunStore;
import java.util.function.Supplier;

/**
 * The {@code workflows} group: preflight, run and inspect saved workflows, and the {@code
 * cortex-save-workflow} skill as a prompt and resources. Nothing is opened until a tool needs it.
 */
public final class WorkflowsGroup {
  public static final String NAME = "workflows";
  public static final String SERVER_KEY = "cortex";

  public static final GroupDescriptor DESCRIPTOR =
      GroupDescriptor.of(
          NAME,
          SERVER_KEY,
          "Saved workflows: preflight, run and inspect them, each run confirmed by a human and"
              + " traced step by step.");

  private WorkflowsGroup() {}

  /**
   * The group, for Cortex {@code version}: its tools run on {@code workflows} and ask the human
   * before each run as {@code consent} says.
   */
  public static CapabilityGroup create(
      String version, Supplier<Workflows> workflows, ConsentPolicy consent) {
    return DESCRIPTOR.group(
        new WorkflowTools(workflows, consent).specs(),
        SkillResources.prompts(version),
        SkillResources.resources(version));
  }

  /** The workflows area's tables, for whoever opens the shared database. */
  public static Area storageArea() {
    return RunStore.area();
  }
}
