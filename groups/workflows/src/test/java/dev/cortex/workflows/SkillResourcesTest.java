package dev.cortex.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.manifest.ManifestSchema;
import dev.cortex.workflows.manifest.ParameterType;
import dev.cortex.workflows.manifest.SchemaReference;
import dev.cortex.workflows.manifest.StepKind;
import dev.cortex.workflows.run.ItemRecord;
import dev.cortex.workflows.run.RunCost;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.StepRecord;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The embedded skill: what is served, stamped, generated, and consistent with the code. */
class SkillResourcesTest {
  private static final Path SCHEMA_DOC = Path.of("../../docs/manifest-schema.md");

  @Test
  void servesThePromptAndFiveResources_eachStampedWithTheVersion() {
    List<PromptSpec> prompts = SkillResources.prompts("9.8.7");
    List<ResourceSpec> resources = SkillResources.resources("9.8.7");

    assertThat(prompts).extracting(PromptSpec::name).containsExactly("cortex-save-workflow");
    assertThat(prompts.get(0).description()).contains("Cortex 9.8.7");
    assertThat(prompts.get(0).body().get()).isEqualTo(SkillResources.text("SKILL.md"));
    assertThat(resources)
        .extracting(ResourceSpec::uri)
        .containsExactly(
            "cortex://skill/SKILL.md",
            "cortex://skill/references/activity_kinds.md",
            "cortex://skill/references/example_workflow.md",
            "cortex://skill/references/manifest_schema.md",
            "cortex://skill/references/trace_interpretation.md");
    for (ResourceSpec resource : resources) {
      assertThat(resource.description()).endsWith("(Cortex 9.8.7).");
      assertThat(resource.mimeType()).isEqualTo("text/markdown");
      assertThat(resource.content().get()).containsPattern("(?m)^# ").doesNotContain("TODO");
    }
  }

  @Test
  void generatedReferences_comeFromTheCodeTheLoaderAndEngineRun() {
    String schema = SchemaReference.markdown();

    for (ParameterType type : ParameterType.values()) {
      assertThat(schema).contains("`" + type.wireName() + "`");
    }
    for (StepKind kind : StepKind.values()) {
      assertThat(schema).contains("| `" + kind.wireName() + "` |");
    }
    assertThat(schema)
        .contains("| `for_each` |", "| `concurrency` |", "| `backoff` |", "| `command` |")
        .contains(
            dev.cortex.base.Json.writePretty(SchemaReference.ordered(ManifestSchema.schema())));
    assertThat(SkillResources.resources("x").get(1).content().get())
        .isEqualTo(SkillResources.activityKinds())
        .contains("## `shell`");
  }

  @Test
  void theSchemaReferenceInDocsMatchesTheCode() throws Exception {
    String generated = SchemaReference.markdown();
    if (Boolean.getBoolean("cortex.writeDocs")) {
      Files.writeString(SCHEMA_DOC, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(SCHEMA_DOC, StandardCharsets.UTF_8))
        .as("docs/manifest-schema.md is stale: regenerate it with -Dcortex.writeDocs=true")
        .isEqualTo(generated);
  }

  @Test
  void everyYamlBlockOfTheSkill_loads() throws Exception {
    for (String name : List.of("SKILL.md", "references/example_workflow.md")) {
      Matcher blocks =
          Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(SkillResources.text(name));
      int count = 0;
      while (blocks.find()) {
        ManifestLoader.parse(name, blocks.group(1));
        count++;
      }
      assertThat(count).as("YAML blocks in %s", name).isPositive();
    }
  }

  @Test
  void traceInterpretation_namesEveryFieldOfATrace() {
    String text = SkillResources.text("references/trace_interpretation.md");
    for (Class<?> type :
        List.of(RunRecord.class, StepRecord.class, RunCost.class, ItemRecord.class)) {
      for (RecordComponent component : type.getRecordComponents()) {
        assertThat(text)
            .as("%s.%s", type.getSimpleName(), component.getName())
            .contains("`" + snake(component.getName()) + "`");
      }
    }
    for (String field : List.of("output_elided", "runs_show")) {
      assertThat(text).contains("`" + field + "`");
    }
  }

  private static String snake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
  }
}
