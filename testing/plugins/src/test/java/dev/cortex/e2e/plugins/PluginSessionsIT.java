package dev.cortex.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A plugin assigned to a project reaches that project's sessions: the scripted agent (the {@code
 * command} backend) gets its stdio server in the turn, starts it (a second {@code cortex mcp}, from
 * a script inside the package that also uses {@code ${PLUGIN_DATA}}), lists its tools and calls
 * one. Sessions of another project, without Cortex's tools, or after the package's {@code mcp.json}
 * changed get none.
 */
class PluginSessionsIT {
  static final String KEY = "plugin-clock-time";

  @TempDir static Path home;
  @TempDir static Path work;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    Path root = Files.createDirectories(home.resolve("plugins/clock"));
    Files.writeString(root.resolve("plugin.json"), "{\"name\": \"Clock\"}");
    Packages.serveScript(root, true);
    Files.createDirectories(root.resolve("skills/tell-time"));
    Files.writeString(
        root.resolve("skills/tell-time/SKILL.md"),
        "---\nname: tell-time\ndescription: Says the time in a zone.\n---\nCall current_time.\n");
    Files.writeString(
        home.resolve("plugins/clock/mcp.json"),
        "{\"mcpServers\": {"
            + "\"time\": {\"command\": \"${PLUGIN_ROOT}/bin/serve\", \"args\": [\"${PLUGIN_DATA}/run\"]}"
            + "}}");
    server = new AgentServer(home, Map.of()).start();
    api = new SessionApi(server);
    CliRun assigned =
        CliRun.run(server, "", "plugins", "assign", "clock", "--project", "timed", "--yes");
    assertThat(assigned.exitCode()).as(assigned.stderr()).isZero();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static String session(String name, Map<String, Object> more) throws Exception {
    Map<String, Object> fields = new LinkedHashMap<>(more);
    fields.put("name", name);
    return api.create(ScriptedAgent.command(), work, fields).path("id").asString();
  }

  static String script(Map<String, Object> script) {
    return TestJson.JSON.writeValueAsString(script);
  }

  /** The tools each server listed in the session's last turn, by server key. */
  static Map<String, List<String>> listed(String session) throws Exception {
    Map<String, List<String>> listed = new LinkedHashMap<>();
    for (JsonNode entry : api.transcript(session)) {
      String text = entry.path("body").path("text").asString();
      if (entry.path("kind").asString().equals("assistant") && text.startsWith("{")) {
        JsonNode server = TestJson.JSON.readTree(text);
        List<String> tools = new ArrayList<>();
        server.path("tools").forEach(t -> tools.add(t.asString()));
        listed.put(server.path("server").asString(), tools);
      }
    }
    return listed;
  }

  @Test
  void aSessionOfTheProject_getsThePluginsStdioServer_andCallsItsTools() throws Exception {
    String id = session("plugin-user", Map.of("project", "timed"));
    SessionApi.Answer answer = api.follow(id, script(Map.of("list_tools", true)));
    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    Map<String, List<String>> tools = listed(id);
    assertThat(tools).containsKey(KEY);
    assertThat(tools.get(KEY)).contains("current_time", "remote_bash");
    assertThat(Files.exists(home.resolve("data/plugins/clock/run/started")))
        .as("the server ran with ${PLUGIN_DATA} made real")
        .isTrue();

    SessionApi.Answer called =
        api.follow(
            id,
            script(
                Map.of(
                    "calls",
                    List.of(
                        Map.of(
                            "server",
                            KEY,
                            "tool",
                            "current_time",
                            "arguments",
                            Map.of("timezone", "UTC"))))));
    assertThat(called.result().path("status").asString()).isEqualTo("completed");
    JsonNode result =
        api.transcript(id).stream()
            .filter(e -> e.path("kind").asString().equals("tool_result"))
            .reduce((a, b) -> b)
            .orElseThrow();
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    assertThat(result.path("body").path("content").asString()).contains("UTC");
  }

  @Test
  void aSessionOfTheProject_getsThePluginsSkills_andOthersDoNot() throws Exception {
    String id = session("skill-user", Map.of("project", "timed"));
    api.follow(id, script(Map.of("list_skills", true)));
    JsonNode said = said(id, "skills");
    assertThat(said.path("skills").size()).as("%s", said).isEqualTo(1);
    JsonNode skill = said.path("skills").get(0);
    assertThat(skill.path("plugin").asString()).isEqualTo("clock");
    assertThat(skill.path("name").asString()).isEqualTo("tell-time");
    assertThat(skill.path("description").asString()).isEqualTo("Says the time in a zone.");
    assertThat(Files.readString(Path.of(skill.path("path").asString())))
        .contains("Call current_time.");
    // For claude, a plugin folder of nothing but the skills, linked to the package's.
    try (var dirs = Files.list(home.resolve("config/plugin-skills"))) {
      Path dir =
          dirs.filter(d -> d.getFileName().toString().startsWith("clock-"))
              .findFirst()
              .orElseThrow();
      assertThat(dir.resolve(".claude-plugin/plugin.json")).exists();
      assertThat(dir.resolve("skills/tell-time/SKILL.md"))
          .hasContent(Files.readString(home.resolve("plugins/clock/skills/tell-time/SKILL.md")));
    }

    String other = session("skill-other", Map.of("project", "untimed"));
    api.follow(other, script(Map.of("list_skills", true)));
    assertThat(said(other, "skills").path("skills").size()).isZero();
    String bare = session("skill-bare", Map.of("project", "timed", "composition", "none"));
    api.follow(bare, script(Map.of("list_skills", true)));
    assertThat(said(bare, "skills").path("skills").size()).isZero();
  }

  /** The last JSON object the agent said that has {@code field}. */
  static JsonNode said(String session, String field) throws Exception {
    JsonNode found = null;
    for (JsonNode entry : api.transcript(session)) {
      String text = entry.path("body").path("text").asString();
      if (entry.path("kind").asString().equals("assistant") && text.startsWith("{")) {
        JsonNode node = TestJson.JSON.readTree(text);
        if (node.has(field)) {
          found = node;
        }
      }
    }
    assertThat(found).as("the agent said something with %s", field).isNotNull();
    return found;
  }

  @Test
  void otherProjects_sessionsWithoutCortexTools_andAChangedPackage_getNoPluginServer()
      throws Exception {
    String other = session("plugin-other", Map.of("project", "untimed"));
    api.follow(other, script(Map.of("list_tools", true)));
    assertThat(listed(other)).isNotEmpty().doesNotContainKey(KEY);

    String bare = session("plugin-bare", Map.of("project", "timed", "composition", "none"));
    api.follow(bare, script(Map.of("list_tools", true)));
    assertThat(listed(bare)).doesNotContainKey(KEY);

    Path mcp = home.resolve("plugins/clock/mcp.json");
    String confirmed = Files.readString(mcp);
    Files.writeString(mcp, confirmed.replace("\"time\"", "\"times\""));
    try {
      String held = session("plugin-held", Map.of("project", "timed"));
      api.follow(held, script(Map.of("list_tools", true)));
      assertThat(listed(held)).isNotEmpty().doesNotContainKey(KEY);
    } finally {
      Files.writeString(mcp, confirmed);
    }
  }
}
