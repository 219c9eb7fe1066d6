package dev.cortex.feishu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.compose.CapabilityGroup;
import org.junit.jupiter.api.Test;

class FeishuGroupTest {
  @Test
  void theGroupServesItsToolAndTheFeishuDocSkill_asAPromptAndAResource() {
    CapabilityGroup group = FeishuGroup.create(null);
    assertThat(group.tools()).extracting(t -> t.name()).containsExactly("feishu_send_file");
    assertThat(group.prompts()).extracting(p -> p.name()).containsExactly("feishu-doc");
    assertThat(group.resources())
        .extracting(r -> r.uri())
        .containsExactly("cortex://skill/feishu-doc/SKILL.md");
    String skill = group.prompts().get(0).body().get();
    assertThat(skill)
        .startsWith("---\nname: feishu-doc\n")
        .contains("@larksuite/cli", "lark-doc", "lark-sheets", "lark-base", "feishu_send_file");
    assertThat(group.resources().get(0).content().get()).isEqualTo(skill);
  }
}
