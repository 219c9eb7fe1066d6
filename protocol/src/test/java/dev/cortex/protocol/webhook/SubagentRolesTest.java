package dev.cortex.protocol.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubagentRolesTest {
  @TempDir Path config;

  @Test
  void load_noFiles_givesTheBuiltInRoles() {
    SubagentRoles roles = SubagentRoles.load(config);

    assertThat(roles.names()).containsExactly("general-purpose", "explore");
    assertThat(roles.problems()).isEmpty();
  }

  @Test
  void load_roleFiles_addRolesAndReplaceBuiltInOnes_badOnesAreLeftOutWithAProblem()
      throws Exception {
    Path agents = Files.createDirectories(config.resolve("agents"));
    Files.writeString(
        agents.resolve("reviewer.md"),
        "---\n"
            + "description: Reviews diffs.\n"
            + "backend: claude\n"
            + "model: \"claude-sonnet-4-5\"\n"
            + "tools: [remote_read, remote_grep]\n"
            + "---\n"
            + "You review.\n");
    Files.writeString(agents.resolve("explore.md"), "Only look.\n");
    Files.writeString(agents.resolve("broken.md"), "---\nsurprise: yes\n---\nx\n");

    SubagentRoles roles = SubagentRoles.load(config);

    assertThat(roles.names()).containsExactly("general-purpose", "explore", "reviewer");
    SubagentRoles.Role reviewer = roles.get("reviewer");
    assertThat(reviewer.description()).isEqualTo("Reviews diffs.");
    assertThat(reviewer.backend()).isEqualTo("claude");
    assertThat(reviewer.model()).isEqualTo("claude-sonnet-4-5");
    assertThat(reviewer.tools()).containsExactly("remote_read", "remote_grep");
    assertThat(reviewer.systemPrompt()).isEqualTo("You review.");
    assertThat(roles.get("explore").systemPrompt()).isEqualTo("Only look.");
    assertThat(roles.get("explore").tools()).isNull();
    assertThat(roles.problems()).singleElement().asString().contains("broken.md", "surprise");
  }

  @Test
  void parse_unclosedFrontMatter_orABadTool_isRefused() {
    assertThatThrownBy(() -> SubagentRoles.parse("x", "---\ndescription: d\n"))
        .hasMessageContaining("closing");
    assertThatThrownBy(() -> SubagentRoles.parse("x", "---\ntools: a b\n---\n"))
        .hasMessageContaining("not a tool name");
  }

  @Test
  void load_moreRoleFilesThanTheBound_keepsTheFirst24() throws Exception {
    Path agents = Files.createDirectories(config.resolve("agents"));
    for (int i = 0; i < 30; i++) {
      Files.writeString(agents.resolve(String.format("role-%02d.md", i)), "x");
    }

    SubagentRoles roles = SubagentRoles.load(config);

    assertThat(roles.all()).hasSize(SubagentRoles.MAX_ROLES);
    assertThat(roles.problems()).hasSize(30 - (SubagentRoles.MAX_ROLES - 2));
  }

  @Test
  void models_comeFromTheEnvironment_boundedTo32() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      many.append("m").append(i).append(',');
    }
    Map<String, List<String>> models =
        SubagentRoles.models(
            Map.of(
                "CORTEX_SUBAGENT_CLAUDE_MODELS",
                " claude-a , claude-b,claude-a",
                "CORTEX_SUBAGENT_PI_MODELS",
                many.toString()));

    assertThat(models.get("claude")).containsExactly("claude-a", "claude-b");
    assertThat(models.get("pi")).hasSize(30);
    assertThat(SubagentRoles.models(Map.of())).isEmpty();
  }
}
