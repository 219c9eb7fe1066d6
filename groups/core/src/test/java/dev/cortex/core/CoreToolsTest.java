package dev.cortex.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.client.AgentServerClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tools of {@code core} as agents see them, pinned by a golden file (regenerate it with {@code
 * -Dcortex.writeGolden=true}), and the refusals the remote tools give before or instead of reaching
 * a device.
 */
class CoreToolsTest {
  static final JsonMapper JSON =
      JsonMapper.builder().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
  static final Path GOLDEN = Path.of("src/test/resources/dev/cortex/core/core-tools.json");

  @TempDir Path dir;

  CortexHome home() {
    return new CortexHome(dir, dir.resolve("data"));
  }

  List<ToolSpec> tools(Map<String, String> env) {
    return CoreGroup.create(home(), new AgentServerClient(env, home()), Clock.systemUTC()).tools();
  }

  ToolOutcome call(Map<String, String> env, String tool, String arguments) {
    return new ToolInvoker(tools(env), home(), Clock.systemUTC())
        .call(tool, JSON.readTree(arguments), ToolContext.ProgressSink.NONE);
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void tools_namesDescriptionsAndSchemas_matchTheGoldenFile() throws Exception {
    List<Map<String, Object>> described =
        tools(Map.of()).stream()
            .map(
                spec -> {
                  Map<String, Object> tool = new LinkedHashMap<>();
                  tool.put("name", spec.name());
                  tool.put("title", spec.title());
                  tool.put("description", spec.description());
                  tool.put("input_schema", spec.inputSchema());
                  tool.put("output_schema", spec.outputSchema());
                  tool.put("hints", spec.hints());
                  tool.put("spill_limit", spec.spillLimit());
                  tool.put("blocking", spec.blocking());
                  return tool;
                })
            .toList();
    String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(described) + "\n";
    if (Boolean.getBoolean("cortex.writeGolden")) {
      Files.writeString(GOLDEN, text, StandardCharsets.UTF_8);
    }

    assertThat(text)
        .as("%s differs: regenerate it with -Dcortex.writeGolden=true", GOLDEN)
        .isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }

  @Test
  void remoteBash_noAgentServerRunning_failsSayingHowToStartIt() throws Exception {
    int port = freePort();
    Map<String, String> env =
        Map.of(
            "WEBHOOK_PORT",
            Integer.toString(port),
            "CORTEX_WEBHOOK_TOKEN",
            "token-for-tests-0123456789abcdef");

    ToolOutcome outcome = call(env, "remote_bash", "{\"device\":\"box1\",\"command\":\"true\"}");

    assertThat(outcome.isError()).isTrue();
    JsonNode error = outcome.body().path("error");
    assertThat(error.path("code").asString()).isEqualTo("UNAVAILABLE");
    assertThat(error.path("message").asString())
        .contains("nothing answers on 127.0.0.1:" + port)
        .contains("cortex server");
  }

  @Test
  void remoteBash_wakeWithoutTheBackground_isRefusedBeforeAnyDeviceIsAsked() {
    ToolOutcome intent =
        call(
            Map.of(),
            "remote_bash",
            "{\"device\":\"box1\",\"command\":\"true\",\"wake_intent\":\"look\"}");
    ToolOutcome wake =
        call(
            Map.of(),
            "remote_bash",
            "{\"device\":\"box1\",\"command\":\"true\",\"wake_when_done\":true}");

    assertThat(intent.body().path("error").path("message").asString())
        .isEqualTo("wake_intent goes with wake_when_done.");
    assertThat(wake.body().path("error").path("message").asString())
        .startsWith("wake_when_done needs run_in_background");
  }

  @Test
  void remoteBash_wakeOutsideASession_isRefusedBeforeTheJobStarts() {
    ToolOutcome outcome =
        call(
            Map.of(),
            "remote_bash",
            "{\"device\":\"box1\",\"command\":\"true\",\"run_in_background\":true,"
                + "\"wake_when_done\":true}");

    assertThat(outcome.body().path("error").path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.body().path("error").path("message").asString())
        .contains("CORTEX_SESSION_ID is not set");
  }

  @Test
  void remoteGrep_contextTwiceWithTwoValues_isRefused() {
    ToolOutcome outcome =
        call(
            Map.of(),
            "remote_grep",
            "{\"device\":\"box1\",\"pattern\":\"x\",\"-C\":1,\"context\":2}");

    assertThat(outcome.body().path("error").path("message").asString())
        .isEqualTo("-C and context are the same setting; give one.");
  }
}
