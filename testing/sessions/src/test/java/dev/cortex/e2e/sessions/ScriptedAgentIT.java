package dev.cortex.e2e.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.ScriptedAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The scripted test agent of {@code test-fixtures} against the built jar: it reads a generated MCP
 * configuration (Claude Code's {@code mcpServers} format) whose servers are {@code cortex mcp
 * --bundles core}, starts them with the MCP Java SDK client and calls their tools as its script
 * says, speaking the command backend's protocol on stdio.
 */
class ScriptedAgentIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void turn_currentTimeCall_reportsTheToolUseAndTheRealResult() throws Exception {
    writeConfig(Map.of("cortex-core", Map.of()));
    long before = Instant.now().getEpochSecond();

    List<JsonNode> lines =
        turn(
            "{\"say\":\"checking\",\"calls\":[{\"server\":\"cortex-core\","
                + "\"tool\":\"current_time\",\"arguments\":{\"timezone\":\"UTC\"}}]}");

    long after = Instant.now().getEpochSecond();
    assertThat(lines)
        .extracting(l -> l.path("type").asString())
        .containsExactly("session", "text", "tool_use", "tool_result", "cost", "end");
    assertThat(lines.get(0).path("id").asString()).isEqualTo("scripted-s_it");
    JsonNode use = lines.get(2);
    assertThat(use.path("id").asString()).isEqualTo("call-1");
    assertThat(use.path("name").asString()).isEqualTo("mcp__cortex-core__current_time");
    assertThat(use.path("input").toString()).isEqualTo("{\"timezone\":\"UTC\"}");
    JsonNode result = lines.get(3);
    assertThat(result.path("tool_use_id").asString()).isEqualTo("call-1");
    assertThat(result.path("is_error").asBoolean()).isFalse();
    JsonNode time = RawStdio.JSON.readTree(result.path("content").asString());
    assertThat(time.path("timezone").asString()).isEqualTo("UTC");
    assertThat(time.path("utc").asString()).endsWith("Z");
    assertThat(time.path("unix_timestamp").asLong()).isBetween(before, after);
    assertThat(lines.get(5).path("status").asString()).isEqualTo("completed");
    assertThat(lines.get(5).path("result").asString()).isEqualTo("checking");
  }

  @Test
  void turn_listTools_startsEveryServerWithItsEntrysEnvironment() throws Exception {
    Map<String, Map<String, String>> servers = new LinkedHashMap<>();
    servers.put("cortex-core", Map.of());
    servers.put("clock", Map.of("CORTEX_MCP_TOOL_ALLOWLIST", "current_time"));
    writeConfig(servers);

    List<JsonNode> lines = turn("{\"list_tools\":true}");

    List<JsonNode> said = new ArrayList<>();
    for (JsonNode line : lines) {
      if (line.path("type").asString().equals("text")) {
        said.add(RawStdio.JSON.readTree(line.path("text").asString()));
      }
    }
    assertThat(said).hasSize(2);
    assertThat(said.get(0).path("server").asString()).isEqualTo("cortex-core");
    assertThat(names(said.get(0).path("tools"))).contains("current_time", "remote_bash");
    assertThat(said.get(1).path("server").asString()).isEqualTo("clock");
    assertThat(names(said.get(1).path("tools")))
        .as("the entry's env (an allowlist) reached its server")
        .containsExactly("current_time");
  }

  @Test
  void turn_badArguments_isAnErrorResultAndTheTurnCompletes() throws Exception {
    writeConfig(Map.of("cortex-core", Map.of()));

    List<JsonNode> lines =
        turn(
            "{\"calls\":[{\"tool\":\"current_time\",\"arguments\":{\"timezone\":\"Mars/Olympus\"}}],"
                + "\"say\":\"done\"}");

    JsonNode result = lines.get(3);
    assertThat(result.path("type").asString()).isEqualTo("tool_result");
    assertThat(result.path("is_error").asBoolean()).isTrue();
    assertThat(result.path("content").asString()).contains("Mars/Olympus");
    assertThat(lines.get(lines.size() - 1).path("status").asString()).isEqualTo("completed");
  }

  @Test
  void turn_theDocumentedExample_callsTheToolAndEchoesTheInjectedMessage() throws Exception {
    writeConfig(Map.of("cortex-core", Map.of()));
    String doc = Files.readString(repository().resolve("docs/command-backend.md"));
    int start = doc.indexOf("```json\n", doc.indexOf("For example:")) + "```json\n".length();
    String example = doc.substring(start, doc.indexOf("\n```", start));

    List<JsonNode> lines = turn(example, "and goodbye");

    assertThat(lines)
        .extracting(l -> l.path("type").asString())
        .containsExactly("session", "text", "tool_use", "tool_result", "text", "cost", "end");
    assertThat(lines.get(3).path("is_error").asBoolean()).isFalse();
    assertThat(lines.get(4).path("text").asString()).isEqualTo("injected: and goodbye");
    assertThat(lines.get(6).path("result").asString()).isEqualTo("injected: and goodbye");
  }

  /**
   * Writes the configuration: each server, in {@code servers}' order, runs {@code cortex mcp
   * --bundles core} with its env.
   */
  private void writeConfig(Map<String, Map<String, String>> servers) throws Exception {
    List<String> launcher = CortexProcess.command("mcp", "--bundles", "core");
    Map<String, Object> entries = new LinkedHashMap<>();
    for (String name : servers.keySet()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("command", launcher.get(0));
      entry.put("args", launcher.subList(1, launcher.size()));
      entry.put("env", servers.get(name));
      entries.put(name, entry);
    }
    Files.writeString(
        work.resolve("mcp-config.json"),
        RawStdio.JSON.writeValueAsString(Map.of("mcpServers", entries)));
  }

  /** Runs one turn of the agent and returns its lines up to its end line. */
  private List<JsonNode> turn(String prompt) throws Exception {
    return turn(prompt, null);
  }

  /**
   * Runs one turn of the agent, injecting {@code inject} (unless null) once it reported a tool
   * result, and returns its lines up to its end line.
   */
  private List<JsonNode> turn(String prompt, String inject) throws Exception {
    Map<String, Object> turn = new LinkedHashMap<>();
    turn.put("type", "turn");
    turn.put("session_id", "s_it");
    turn.put("prompt", prompt);
    turn.put("resume", null);
    turn.put("model", null);
    turn.put("mcp_config", work.resolve("mcp-config.json").toString());
    try (RawStdio agent = RawStdio.spawn(ScriptedAgent.command(), CortexProcess.env(home))) {
      agent.send(RawStdio.JSON.writeValueAsString(turn));
      List<JsonNode> lines = new ArrayList<>();
      JsonNode line;
      do {
        line = agent.next();
        lines.add(line);
        if (inject != null && line.path("type").asString().equals("tool_result")) {
          agent.send(RawStdio.JSON.writeValueAsString(Map.of("type", "inject", "text", inject)));
        }
      } while (!line.path("type").asString().equals("end"));
      agent.closeInput();
      assertThat(agent.exitCode()).as("stderr: %s", agent.stderr()).isZero();
      return lines;
    }
  }

  private static Path repository() {
    return Checkout.root();
  }

  private static List<String> names(JsonNode array) {
    List<String> names = new ArrayList<>();
    array.forEach(n -> names.add(n.asString()));
    return names;
  }
}
