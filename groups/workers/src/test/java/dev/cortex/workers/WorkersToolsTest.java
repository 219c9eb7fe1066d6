package dev.cortex.workers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.OfflineTools;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.client.AgentServerClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker tools' arguments as a client sends them (through {@link ToolInvoker}): every bound is
 * refused {@code INVALID_ARGUMENT} before anything reaches the agent server. No server runs here: a
 * call that passed the checks fails {@code UNAVAILABLE}, which is how the tests tell the two apart.
 */
class WorkersToolsTest {
  @TempDir Path dir;
  OfflineTools tools;

  @BeforeEach
  void setUp() {
    CortexHome home = OfflineTools.home(dir);
    AgentServerClient client =
        new AgentServerClient(Map.of("WEBHOOK_PORT", "9", "CORTEX_WEBHOOK_TOKEN", "t"), home);
    List<ToolSpec> all = new ArrayList<>(WorkersGroup.workers(client, Map.of()).tools());
    all.addAll(WorkersGroup.report(client).tools());
    tools = new OfflineTools(all, home);
  }

  private String code(String tool, String arguments) {
    return tools.code(tool, arguments);
  }

  @Test
  void theGroupsServeTheirToolsUnderTheirKeys() {
    AgentServerClient client = new AgentServerClient(Map.of(), new CortexHome(dir, dir));
    assertThat(WorkersGroup.WORKERS_DESCRIPTOR.serverKey()).isEqualTo("cortex-workers");
    assertThat(WorkersGroup.REPORT_DESCRIPTOR.serverKey()).isEqualTo("cortex-worker-report");
    assertThat(WorkersGroup.workers(client, Map.of()).tools())
        .extracting(ToolSpec::name)
        .containsExactly(
            "worker_spawn", "worker_send", "worker_list", "worker_stop", "worker_answer");
    assertThat(WorkersGroup.report(client).tools())
        .extracting(ToolSpec::name)
        .containsExactly("mark_routine");
    assertThat(WorkersGroup.workers(client, Map.of()).instructions())
        .startsWith("workers:")
        .contains("worker_answer");
    assertThat(WorkersGroup.report(client).instructions())
        .startsWith("worker-report:")
        .contains("mark_routine");
  }

  @Test
  void workerSpawnNamesTheModelsOfTheEnvironment() {
    AgentServerClient client = new AgentServerClient(Map.of(), new CortexHome(dir, dir));
    ToolSpec spawn =
        WorkersGroup.workers(client, Map.of("CORTEX_SUBAGENT_CLAUDE_MODELS", "opus, sonnet,opus"))
            .tools()
            .get(0);
    assertThat(spawn.description()).contains("Models:\n- claude: opus, sonnet");
    assertThat(WorkersGroup.workers(client, Map.of()).tools().get(0).description())
        .doesNotContain("Models:");
  }

  @Test
  void wellFormedCallsPassTheChecks() {
    assertThat(code("worker_spawn", "{\"name\":\"scout\",\"prompt\":\"look\"}"))
        .isEqualTo("UNAVAILABLE");
    assertThat(code("worker_send", "{\"worker\":\"scout\",\"message\":\"more\"}"))
        .isEqualTo("UNAVAILABLE");
    assertThat(code("worker_list", "{}")).isEqualTo("UNAVAILABLE");
    assertThat(code("worker_list", "{\"worker\":\"scout\"}")).isEqualTo("UNAVAILABLE");
    assertThat(code("worker_stop", "{\"worker\":\"scout\"}")).isEqualTo("UNAVAILABLE");
    assertThat(code("worker_answer", "{\"request_id\":\"ia-0123456789ab\",\"approved\":true}"))
        .isEqualTo("UNAVAILABLE");
    assertThat(code("mark_routine", "{}")).isEqualTo("UNAVAILABLE");
  }

  @Test
  void badArgumentsAreRefusedBeforeTheServer() {
    assertThat(code("worker_spawn", "{\"name\":\"Scout\",\"prompt\":\"look\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_spawn", "{\"name\":\"" + "a".repeat(33) + "\",\"prompt\":\"x\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_spawn", "{\"name\":\"scout\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_spawn", "{\"name\":\"scout\",\"prompt\":\"\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_spawn", "{\"name\":\"scout\",\"prompt\":\"x\",\"colour\":1}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_send", "{\"worker\":\"scout\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_send", "{\"worker\":\"\",\"message\":\"m\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_stop", "{}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_list", "{\"worker\":7}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_answer", "{\"request_id\":\"nope\",\"approved\":true}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("worker_answer", "{\"approved\":true}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("mark_routine", "{\"now\":true}")).isEqualTo("INVALID_ARGUMENT");
  }
}
