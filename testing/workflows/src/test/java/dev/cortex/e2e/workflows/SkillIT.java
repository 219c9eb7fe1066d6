package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.WorkflowServer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The save-workflow skill as the built program serves it: the prompt, the five resources stamped
 * with the version, and the example's workflow replayed through run.
 */
class SkillIT {
  @TempDir Path home;
  @TempDir Path notes;

  static McpSyncClient client(Path home) {
    List<String> command = CortexProcess.command("mcp");
    return McpClients.connect(
        new StdioClientTransport(
            ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size()))
                .env(CortexProcess.env(home))
                .build(),
            McpClients.MAPPER));
  }

  static String version() throws Exception {
    return CortexProcess.run(CortexProcess.env(Path.of("/nonexistent")), "--version")
        .stdout()
        .strip()
        .replace("cortex ", "");
  }

  @Test
  void promptAndResources_areListedStampedAndRead() throws Exception {
    String version = version();
    McpSyncClient client = client(home);
    try {
      List<McpSchema.Prompt> prompts = client.listPrompts().prompts();
      McpSchema.GetPromptResult prompt =
          client.getPrompt(new McpSchema.GetPromptRequest("cortex-save-workflow", Map.of()));
      List<McpSchema.Resource> resources = client.listResources().resources();

      assertThat(prompts).extracting(McpSchema.Prompt::name).contains("cortex-save-workflow");
      assertThat(prompts.get(0).description()).contains("Cortex " + version);
      String body = ((McpSchema.TextContent) prompt.messages().get(0).content()).text();
      assertThat(body).contains("# Save what you just did as a Cortex workflow");
      assertThat(resources)
          .extracting(McpSchema.Resource::uri)
          .containsExactlyInAnyOrder(
              "cortex://skill/SKILL.md",
              "cortex://skill/references/activity_kinds.md",
              "cortex://skill/references/example_workflow.md",
              "cortex://skill/references/manifest_schema.md",
              "cortex://skill/references/trace_interpretation.md");
      for (McpSchema.Resource resource : resources) {
        assertThat(resource.description()).endsWith("(Cortex " + version + ").");
        String text = read(client, resource.uri());
        assertThat(text).isNotBlank();
      }
      assertThat(read(client, "cortex://skill/SKILL.md")).isEqualTo(body);
      assertThat(read(client, "cortex://skill/references/manifest_schema.md"))
          .isEqualTo(
              Files.readString(WorkflowServer.repository().resolve("docs/manifest-schema.md")));
      assertThat(read(client, "cortex://skill/references/activity_kinds.md"))
          .isEqualTo(
              Files.readString(WorkflowServer.repository().resolve("docs/activity-kinds.md")));
    } finally {
      client.closeGracefully();
    }
  }

  @Test
  void theExampleWorkflow_replaysThroughRun() throws Exception {
    McpSyncClient client = client(home);
    String example;
    try {
      example = read(client, "cortex://skill/references/example_workflow.md");
    } finally {
      client.closeGracefully();
    }
    Matcher yaml = Pattern.compile("```yaml\n(.*?)```", Pattern.DOTALL).matcher(example);
    assertThat(yaml.find()).isTrue();
    String manifest = WorkflowServer.manifest(notes, "longest-notes", yaml.group(1));
    Path tree = Files.createDirectories(notes.resolve("tree").resolve("sub"));
    Files.writeString(tree.resolve("long.md"), "a\nb\nc\nd\ne\n");
    Files.writeString(tree.getParent().resolve("mid.md"), "a\nb\nc\n");
    Files.writeString(tree.getParent().resolve("short.md"), "a\n");
    Files.writeString(tree.getParent().resolve("other.txt"), "a\nb\nc\nd\ne\nf\ng\n");

    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      JsonNode checked =
          server.ok(
              "check",
              args("workflow", manifest, "params", args("dir", tree.getParent().toString())));
      JsonNode trace =
          server.ok(
              "run",
              args(
                  "workflow",
                  manifest,
                  "params",
                  args("dir", tree.getParent().toString(), "top", 2)));

      assertThat(checked.path("parameters").path("extension").asString()).isEqualTo("md");
      assertThat(trace.path("status").asString()).as(trace.toString()).isEqualTo("succeeded");
      JsonNode longest = WorkflowServer.step(trace, "longest").path("output");
      assertThat(longest.size()).isEqualTo(2);
      assertThat(longest.get(0).path("path").asString()).endsWith("long.md");
      assertThat(longest.get(0).path("lines").asInt()).isEqualTo(5);
      assertThat(longest.get(1).path("path").asString()).endsWith("mid.md");
      assertThat(WorkflowServer.step(trace, "counts").path("items").size()).isEqualTo(3);
    }
  }

  private static String read(McpSyncClient client, String uri) {
    McpSchema.ReadResourceResult result =
        client.readResource(new McpSchema.ReadResourceRequest(uri));
    return ((McpSchema.TextResourceContents) result.contents().get(0)).text();
  }
}
