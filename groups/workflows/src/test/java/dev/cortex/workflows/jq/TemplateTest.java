package dev.cortex.workflows.jq;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TemplateTest {
  @Test
  void expressions_findsEachTemplateTrimmed() {
    assertThat(Template.expressions("a ${{ .params.x }} b ${{.steps.s.rows | length}}"))
        .containsExactly(".params.x", ".steps.s.rows | length");
  }

  @Test
  void expressions_literalText_hasNone() {
    assertThat(Template.expressions("plain $HOME ${not} {{x}}")).isEmpty();
  }

  @Test
  void whole_singleTemplate_keepsJsonType() {
    assertThat(Template.whole("  ${{ [.params.n] }} ")).contains("[.params.n]");
    assertThat(Template.whole("n=${{ .params.n }}")).isEmpty();
    assertThat(Template.whole("${{ .a }}${{ .b }}")).isEmpty();
  }
}
