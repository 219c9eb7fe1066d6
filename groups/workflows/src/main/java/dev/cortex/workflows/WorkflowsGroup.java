package dev.cortex.workflows;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.storage.Area;
import dev.cortex.workflows.consent.ConsentPolicy;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.tools.WorkflowTools;
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
    return DESCRIPTOR
        .group(
            new WorkflowTools(workflows, consent).specs(),
            SkillResources.prompts(version),
            SkillResources.resources(version))
        .withInstructions(INSTRUCTIONS);
  }

  /** How an agent uses the group, for the server's instructions. */
  static final String INSTRUCTIONS =
      "workflows: saved procedures that a person approves run by run. show a workflow to learn"
          + " its parameters, check it with the parameters you mean to pass, then run it. Every"
          + " run first asks the person (the client's form, or a dialog on the server's machine)"
          + " and waits for them; a declined or unanswered run ran nothing, so do not retry it"
          + " unasked. A failed step is no tool error: read the trace's step status and error."
          + " For long workflows pass detach: true and follow the run with runs_show; runs_list"
          + " finds runs, runs_cancel stops one, status says whether the engine can take runs."
          + " No tool saves a workflow: draft a manifest with the cortex-save-workflow prompt and a"
          + " person saves it with cortex workflows save.";

  /** The workflows area's tables, for whoever opens the shared database. */
  public static Area storageArea() {
    return RunStore.area();
  }
}
