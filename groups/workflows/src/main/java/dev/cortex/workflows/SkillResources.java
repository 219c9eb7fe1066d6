package dev.cortex.workflows;

import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.KindReference;
import dev.cortex.workflows.manifest.SchemaReference;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code cortex-save-workflow} skill, embedded so that any MCP client gets it: the prompt is
 * the skill's body, and the resources are the skill and its references. Two references are
 * generated from the code the loader and the engine run ({@code activity_kinds.md}, {@code
 * manifest_schema.md}); the others are written by hand and tested against the program. Each
 * description names the Cortex version it was built into.
 */
public final class SkillResources {
  public static final String PROMPT = "cortex-save-workflow";
  public static final String SKILL_URI = "cortex://skill/SKILL.md";
  public static final String REFERENCES = "cortex://skill/references/";

  private SkillResources() {}

  /** The prompt {@code cortex-save-workflow}. */
  public static List<PromptSpec> prompts(String version) {
    return List.of(
        new PromptSpec(
            PROMPT,
            "How to turn what you just did in this session into a Cortex workflow manifest, check"
                + " it, and hand it to the human to save (Cortex "
                + version
                + ").",
            () -> text("SKILL.md")));
  }

  /** The skill and its four references. */
  public static List<ResourceSpec> resources(String version) {
    return List.of(
        resource(
            SKILL_URI,
            "SKILL.md",
            "The cortex-save-workflow skill: from a session's work to a saved workflow",
            version,
            () -> text("SKILL.md")),
        resource(
            REFERENCES + "activity_kinds.md",
            "activity_kinds.md",
            "Every step kind's inputs and outputs, generated from the code",
            version,
            SkillResources::activityKinds),
        resource(
            REFERENCES + "example_workflow.md",
            "example_workflow.md",
            "A worked example: a session, the manifest made of it, its check and its run",
            version,
            () -> text("references/example_workflow.md")),
        resource(
            REFERENCES + "manifest_schema.md",
            "manifest_schema.md",
            "Every field of a workflow manifest and its JSON Schema, generated from the code",
            version,
            SchemaReference::markdown),
        resource(
            REFERENCES + "trace_interpretation.md",
            "trace_interpretation.md",
            "How to read a run's trace: statuses, errors, elided outputs, cost",
            version,
            () -> text("references/trace_interpretation.md")));
  }

  /** The activity kinds reference, as served. */
  public static String activityKinds() {
    return KindReference.markdown(Activities.standard());
  }

  /** A hand-written part of the skill, from the program's resources. */
  public static String text(String name) {
    try (InputStream in = SkillResources.class.getResourceAsStream("skill/" + name)) {
      if (in == null) {
        throw new IllegalStateException("skill/" + name + " is missing from the program");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ResourceSpec resource(
      String uri, String name, String description, String version, Supplier<String> content) {
    return new ResourceSpec(
        uri, name, description + " (Cortex " + version + ").", "text/markdown", content);
  }
}
