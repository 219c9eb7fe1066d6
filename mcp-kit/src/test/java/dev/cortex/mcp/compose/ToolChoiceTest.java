package dev.cortex.mcp.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ToolChoiceTest {
  static ToolSpec tool(String name, boolean readOnly) {
    return ToolSpec.builder(name, call -> java.util.Map.of())
        .title(name)
        .description(name)
        .output(Schema.object().build())
        .hints(readOnly ? ToolHints.readOnlyLocal() : new ToolHints(false, true, false, true))
        .build();
  }

  static final GroupRegistry REGISTRY =
      GroupRegistry.builder()
          .add(
              GroupDescriptor.of("core", "cortex-core", "c"),
              () ->
                  CapabilityGroup.ofTools(
                      "core",
                      "cortex-core",
                      "c",
                      List.of(
                          tool("remote_bash", false),
                          tool("remote_read", true),
                          tool("current_time", true))))
          .add(
              GroupDescriptor.of("web", "cortex-web", "w"),
              () ->
                  CapabilityGroup.ofTools(
                      "web", "cortex-web", "w", List.of(tool("send_file", false))))
          .defaults("cortex", "core")
          .build();

  static List<String> chosen(String bundles, ToolChoice choice) {
    return Composition.select(REGISTRY, bundles, null, null, choice).tools().stream()
        .map(ToolSpec::name)
        .toList();
  }

  @Test
  void readOnly_keepsOnlyToolsAnnotatedReadOnly() {
    assertThat(chosen("all", ToolChoice.of(true, null, null, null)))
        .containsExactly("remote_read", "current_time");
  }

  @Test
  void tools_andExcludeTools_combine_inRegistrationOrder() {
    assertThat(chosen(null, ToolChoice.of(false, "current_time,remote_bash", null, null)))
        .containsExactly("remote_bash", "current_time");
    assertThat(chosen(null, ToolChoice.of(false, null, null, "[\"remote_bash\"]")))
        .containsExactly("remote_read", "current_time");
  }

  @Test
  void toolsFlag_winsOverTheAllowlistVariable() {
    assertThat(chosen(null, ToolChoice.of(false, "remote_read", "current_time", null)))
        .containsExactly("remote_read");
  }

  @Test
  void misspeltTool_isRefused_namingTheClosestServedTool() {
    assertThatThrownBy(() -> chosen(null, ToolChoice.of(false, "remote_reed", null, null)))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("--tools names remote_reed, not served by the selected groups (core)")
        .hasMessageContaining("did you mean remote_read?");
    assertThatThrownBy(() -> chosen(null, ToolChoice.of(false, null, null, "curent_time")))
        .hasMessageContaining("--exclude-tools names curent_time")
        .hasMessageContaining("did you mean current_time?");
  }

  @Test
  void toolOfAGroupNotSelected_isRefused_namingItsGroup() {
    assertThatThrownBy(() -> chosen("core", ToolChoice.of(false, "send_file", null, null)))
        .hasMessageContaining("send_file is a tool of the web group")
        .hasMessageContaining("--bundles");
  }

  @Test
  void readOnlyWithAWriterNamed_isRefusedAsAConflict() {
    assertThatThrownBy(
            () -> chosen(null, ToolChoice.of(true, "remote_bash,remote_read", null, null)))
        .hasMessageContaining("--tools names remote_bash, which is not read-only");
  }

  @Test
  void emptyToolsFlag_isRefused() {
    assertThatThrownBy(() -> ToolChoice.of(false, " , ", null, null))
        .hasMessageContaining("--tools names no tool");
  }

  @Test
  void closest_isTheNearestByEditDistance() {
    assertThat(ToolChoice.closest("runs_lst", Set.of("runs_list", "runs_show", "run")))
        .isEqualTo("runs_list");
    assertThat(ToolChoice.distance("kitten", "sitting")).isEqualTo(3);
  }
}
