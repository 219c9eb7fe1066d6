package dev.cortex.mcp.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompositionTest {
  static ToolSpec tool(String name) {
    return ToolSpec.builder(name, call -> java.util.Map.of())
        .title(name)
        .description(name)
        .output(Schema.object().build())
        .hints(ToolHints.readOnlyLocal())
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
                      List.of(tool("remote_bash"), tool("current_time"))))
          .add(
              GroupDescriptor.of("ext", "cortex-core", "e"),
              () -> CapabilityGroup.ofTools("ext", "cortex-core", "e", List.of(tool("cost_query"))))
          .add(
              GroupDescriptor.of("web", "cortex-web", "w"),
              () -> CapabilityGroup.ofTools("web", "cortex-web", "w", List.of(tool("send_file"))))
          .defaults("cortex", "ext", "web")
          .build();

  static List<String> names(Composition c) {
    return c.tools().stream().map(ToolSpec::name).toList();
  }

  @Test
  void select_nothingGiven_takesDefaultsAndTheirKey() {
    Composition c = Composition.select(REGISTRY, null, null, null);

    assertThat(c.groupNames()).containsExactly("ext", "web");
    assertThat(c.serverKey(REGISTRY)).isEqualTo("cortex");
  }

  @Test
  void select_flagWinsOverEnvironment() {
    Composition c = Composition.select(REGISTRY, "web", "core", null);

    assertThat(c.groupNames()).containsExactly("web");
    assertThat(c.serverKey(REGISTRY)).isEqualTo("cortex-web");
  }

  @Test
  void select_defaultBundles_giveWayToTheEnvironment_butNotToNothing() {
    Composition fromFile = Composition.select(REGISTRY, null, null, null, "core,ext");
    Composition forSession = Composition.select(REGISTRY, null, "core,ext,web", null, "core,ext");
    Composition flag = Composition.select(REGISTRY, "web", "core", null, "core,ext");

    assertThat(fromFile.groupNames()).containsExactly("core", "ext");
    assertThat(forSession.groupNames()).containsExactly("core", "ext", "web");
    assertThat(flag.groupNames()).containsExactly("web");
  }

  @Test
  void select_environmentJsonArrayWithSeedNames() {
    Composition c = Composition.select(REGISTRY, null, "[\"cortex-core\",\"cortex-ext\"]", null);

    assertThat(c.groupNames()).containsExactly("core", "ext");
    assertThat(c.serverKey(REGISTRY)).isEqualTo("cortex-core");
  }

  @Test
  void select_commaListWithSpacesAndDuplicates() {
    Composition c = Composition.select(REGISTRY, " core , ext,core,, ", null, null);

    assertThat(c.groupNames()).containsExactly("core", "ext");
    assertThat(names(c)).containsExactly("remote_bash", "current_time", "cost_query");
  }

  @Test
  void select_unknownGroup_namesKnownGroups() {
    assertThatThrownBy(() -> Composition.select(REGISTRY, "core,nope", null, null))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("'nope'")
        .hasMessageContaining("core, ext, web");
  }

  @Test
  void select_emptySelection_isRefused() {
    assertThatThrownBy(() -> Composition.select(REGISTRY, " , ", null, null))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("No capability group selected");
  }

  @Test
  void select_malformedJsonArray_isRefused() {
    assertThatThrownBy(() -> Composition.select(REGISTRY, null, "[\"core\"", null))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("CORTEX_MCP_BUNDLES");
    assertThatThrownBy(() -> Composition.select(REGISTRY, null, "[1]", null))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("array of names");
  }

  @Test
  void allowlist_filtersAndKeepsRegistrationOrder() {
    Composition c = Composition.select(REGISTRY, "core,ext", null, "cost_query,remote_bash");

    assertThat(names(c)).containsExactly("remote_bash", "cost_query");
  }

  @Test
  void allowlist_acceptsClientPrefixedNames() {
    Composition c =
        Composition.select(REGISTRY, "core", null, "[\"mcp__cortex-core__current_time\"]");

    assertThat(names(c)).containsExactly("current_time");
  }

  @Test
  void allowlist_nameOutsideSelection_isRefusedBeforeAnyRegistration() {
    assertThatThrownBy(() -> Composition.select(REGISTRY, "core", null, "current_time,send_file"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("send_file")
        .hasMessageContaining("(core)")
        .hasMessageContaining("current_time, remote_bash");
  }

  @Test
  void allowlist_blank_meansNoFilter() {
    assertThat(names(Composition.select(REGISTRY, "ext", null, "  ")))
        .containsExactly("cost_query");
  }
}
