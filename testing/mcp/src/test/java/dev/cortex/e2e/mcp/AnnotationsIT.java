package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.RawStdio;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The annotations and descriptions every tool declares, as {@code tools/list} gives them. */
class AnnotationsIT {
  @TempDir static Path home;

  static final Map<String, JsonNode> TOOLS = new LinkedHashMap<>();

  @BeforeAll
  static void listEveryGroup() throws Exception {
    try (RawStdio s = RawStdio.start(CortexProcess.env(home), "mcp", "--bundles", "all")) {
      s.initialize("{}");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
      s.next().path("result").path("tools").forEach(t -> TOOLS.put(t.path("name").asString(), t));
    }
  }

  static boolean hint(String tool, String name) {
    JsonNode value = TOOLS.get(tool).path("annotations").path(name);
    assertThat(value.isBoolean()).as(tool + "." + name).isTrue();
    return value.asBoolean();
  }

  @Test
  void checkAndShow_fetchRemoteRefs_soTheyAreOpenWorld_andStillReadOnly() {
    for (String tool : new String[] {"check", "show"}) {
      assertThat(hint(tool, "openWorldHint")).as(tool).isTrue();
      assertThat(hint(tool, "readOnlyHint")).as(tool).isTrue();
    }
  }

  @Test
  void runsCancel_endsProcessTrees_soItIsDestructive_asWaitCancelIs() {
    assertThat(hint("runs_cancel", "destructiveHint")).isTrue();
    assertThat(hint("runs_cancel", "readOnlyHint")).isFalse();
    assertThat(hint("wait_cancel", "destructiveHint")).isTrue();
  }

  @Test
  void remoteJob_onlyReads_andRemoteJobKill_isTheDestructiveOne() {
    assertThat(hint("remote_job", "readOnlyHint")).isTrue();
    assertThat(hint("remote_job", "destructiveHint")).isFalse();
    assertThat(hint("remote_job", "openWorldHint")).isTrue();
    assertThat(TOOLS.get("remote_job").path("inputSchema").path("properties").path("action"))
        .asString()
        .doesNotContain("kill");
    assertThat(hint("remote_job_kill", "destructiveHint")).isTrue();
    assertThat(hint("remote_job_kill", "readOnlyHint")).isFalse();
    assertThat(TOOLS.get("remote_job_kill").path("inputSchema").path("required").toString())
        .contains("device")
        .contains("job_id");
  }

  @Test
  void descriptions_nameOnlyWhatExists() {
    assertThat(TOOLS.get("show").path("description").asString())
        .doesNotContain("takes no parameters")
        .contains("workflow");
    assertThat(TOOLS.get("show").path("inputSchema").path("required").toString())
        .contains("workflow");
    assertThat(TOOLS.get("cortex_context").path("description").asString())
        .doesNotContain("cortex schedule");
  }

  @Test
  void everyReadOnlyTool_isNeitherDestructive_norAWriter() {
    TOOLS.forEach(
        (name, tool) -> {
          if (hint(name, "readOnlyHint")) {
            assertThat(hint(name, "destructiveHint")).as(name).isFalse();
          }
        });
  }
}
