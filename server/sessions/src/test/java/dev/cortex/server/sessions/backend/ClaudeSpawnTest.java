package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The argv and environment of a Claude Code turn, pinned by golden files in {@code
 * src/test/resources/dev/cortex/server/sessions/backend/claude/spawn/} (regenerate them with {@code
 * mvn -B -ntp verify -pl sessions -am -Dtest=ClaudeSpawnTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dcortex.writeGolden=true}).
 */
class ClaudeSpawnTest {
  private static final String CLAUDE = "/opt/claude/bin/claude";
  private static final Path CONFIG_DIR = Path.of("/srv/cortex/data/claude");
  private static final Path HOME_CONFIG = Path.of("/srv/cortex/config");

  @Test
  void of_firstTurn_matchesGolden() throws IOException {
    assertGolden(
        "first-turn.txt",
        request(null, null, HOME_CONFIG.resolve("mcp-config.json"), false, "core,ext"));
  }

  @Test
  void of_resumedTurnWithModel_matchesGolden() throws IOException {
    assertGolden(
        "resumed-with-model.txt",
        request(
            "8f0c5a52-3c1e-4b8e-9a55-1f0d2c7e6a11",
            "claude-opus-4-1",
            HOME_CONFIG.resolve("mcp-config.json"),
            false,
            "core,ext"));
  }

  @Test
  void of_withPlugins_layersTheirConfigurationAfterCortexOwn_andLoadsTheirSkillFolders() {
    TurnRequest base = request(null, null, HOME_CONFIG.resolve("mcp-config.json"), false, "core");
    Path plugins = HOME_CONFIG.resolve("mcp-plugins/mcp-plugins-0123abcd.json");
    TurnRequest request =
        new TurnRequest(
            base.sessionId(),
            base.messages(),
            null,
            null,
            base.workingDirectory(),
            base.environment(),
            base.mcpConfig(),
            false,
            null,
            new TurnRequest.Plugins(
                List.of(
                    new TurnRequest.PluginMcp(
                        "plugin-p-s",
                        "p",
                        "s",
                        "stdio",
                        "node",
                        List.of(),
                        Map.of(),
                        null,
                        null,
                        null,
                        null)),
                plugins,
                List.of(),
                List.of(Path.of("/h/config/plugin-skills/p-0a1b2c"))));
    List<String> argv = ClaudeSpawn.of(request, "claude", CONFIG_DIR, java.util.Set.of()).command();
    int at = argv.indexOf("--mcp-config");
    assertThat(argv.subList(at, at + 3))
        .containsExactly(
            "--mcp-config", HOME_CONFIG.resolve("mcp-config.json").toString(), plugins.toString());
    int dir = argv.indexOf("--plugin-dir");
    assertThat(argv.get(dir + 1)).isEqualTo("/h/config/plugin-skills/p-0a1b2c");
    assertThat(ClaudeSpawn.of(base, "claude", CONFIG_DIR, java.util.Set.of()).command())
        .doesNotContain(plugins.toString(), "--plugin-dir");
  }

  @Test
  void of_strictNoneComposition_matchesGolden() throws IOException {
    assertGolden(
        "strict-none.txt",
        request(null, null, HOME_CONFIG.resolve("mcp-config-empty.json"), true, null));
  }

  /**
   * The interaction group serves its three tools, so the spawn takes away Claude Code's question
   * and plan tools that they replace.
   */
  @Test
  void of_interactionComposition_matchesGolden() throws IOException {
    assertGolden(
        "interaction.txt",
        request(
            null,
            "claude-sonnet-4-5",
            HOME_CONFIG.resolve("mcp-config.json"),
            false,
            "[\"cortex-core\",\"cortex-ext\",\"cortex-interaction\"]"),
        Set.of("current_time", "cortex_ask_user", "cortex_plan_enter", "cortex_plan_exit"));
  }

  @Test
  void disallowedTools_nothingServedThatReplacesABuiltInTool_takesNothingAway() {
    assertThat(ClaudeSpawn.disallowedTools(Set.of())).isEmpty();
    assertThat(ClaudeSpawn.disallowedTools(Set.of("current_time", "remote_bash"))).isEmpty();
  }

  @Test
  void disallowedTools_replacementsServed_takeAwayTheBuiltInsTheyReplace() {
    assertThat(ClaudeSpawn.disallowedTools(Set.of("agent"))).containsExactly("Agent", "Task");
    assertThat(
            ClaudeSpawn.disallowedTools(
                Set.of("cortex_ask_user", "cortex_plan_enter", "cortex_plan_exit")))
        .containsExactly("AskUserQuestion", "EnterPlanMode", "ExitPlanMode");
    assertThat(ClaudeSpawn.disallowedTools(Set.of("cortex_ask_user", "agent")))
        .containsExactly("Agent", "Task", "AskUserQuestion");
  }

  @Test
  void of_replacementsServed_endsWithTheDisallowedTools() {
    List<String> command =
        ClaudeSpawn.of(
                request(null, null, HOME_CONFIG.resolve("mcp-config.json"), false, "core,ext"),
                CLAUDE,
                CONFIG_DIR,
                Set.of("agent"))
            .command();

    assertThat(command.subList(command.size() - 2, command.size()))
        .containsExactly("--disallowedTools", "Agent,Task");
  }

  @Test
  void of_sandboxSetting_addsClaudeCodesSandboxVariable() {
    Map<String, String> env = new LinkedHashMap<>(environment("core,ext"));
    env.put("CORTEX_CLAUDE_SANDBOX", "1");
    TurnRequest request =
        new TurnRequest(
            "s_1",
            List.of(new TurnRequest.Message("1", "hi")),
            null,
            null,
            Path.of("/work/project"),
            env,
            HOME_CONFIG.resolve("mcp-config.json"),
            false,
            null);

    assertThat(ClaudeSpawn.of(request, CLAUDE, CONFIG_DIR).environment())
        .containsEntry("IS_SANDBOX", "1");
    assertThat(
            ClaudeSpawn.of(
                    request(null, null, HOME_CONFIG.resolve("mcp-config.json"), false, "core"),
                    CLAUDE,
                    CONFIG_DIR)
                .environment())
        .doesNotContainKey("IS_SANDBOX");
  }

  @Test
  void of_environmentAlreadyNamingClaudeConfig_isOverridden() {
    Map<String, String> env = new LinkedHashMap<>(environment("core,ext"));
    env.put("CLAUDE_CONFIG_DIR", "/home/someone/.claude");
    env.put("MCP_TOOL_TIMEOUT", "5000");
    TurnRequest request =
        new TurnRequest(
            "s_1",
            List.of(new TurnRequest.Message("1", "hi")),
            null,
            null,
            Path.of("/work/project"),
            env,
            HOME_CONFIG.resolve("mcp-config.json"),
            false,
            null);
    assertThat(ClaudeSpawn.of(request, CLAUDE, CONFIG_DIR).environment())
        .containsEntry("CLAUDE_CONFIG_DIR", CONFIG_DIR.toString())
        .containsEntry("MCP_TOOL_TIMEOUT", "1830000")
        .hasSize(env.size());
  }

  private static TurnRequest request(
      String resume, String model, Path mcpConfig, boolean strict, String bundles) {
    return new TurnRequest(
        "s_4f2a9c",
        List.of(new TurnRequest.Message("1", "What time is it?")),
        resume,
        model,
        Path.of("/work/project"),
        environment(bundles),
        mcpConfig,
        strict,
        null);
  }

  private static Map<String, String> environment(String bundles) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", "/home/cortex");
    env.put("CORTEX_SESSION_ID", "s_4f2a9c");
    env.put("CORTEX_PROJECT", "demo");
    env.put("CORTEX_BACKEND", "claude");
    env.put("WEBHOOK_PORT", "3001");
    if (bundles != null) {
      env.put("CORTEX_MCP_BUNDLES", bundles);
    }
    return env;
  }

  private static void assertGolden(String name, TurnRequest request) throws IOException {
    assertGolden(name, request, Set.of());
  }

  private static void assertGolden(String name, TurnRequest request, Set<String> served)
      throws IOException {
    ClaudeSpawn spawn = ClaudeSpawn.of(request, CLAUDE, CONFIG_DIR, served);
    StringBuilder text = new StringBuilder("argv:\n");
    spawn.command().forEach(arg -> text.append("  ").append(arg).append('\n'));
    text.append("environment:\n");
    new TreeMap<>(spawn.environment())
        .forEach((k, v) -> text.append("  ").append(k).append('=').append(v).append('\n'));
    Path expected =
        Path.of("src/test/resources/dev/cortex/server/sessions/backend/claude/spawn").resolve(name);
    if (Boolean.getBoolean("cortex.writeGolden")) {
      Files.writeString(expected, text, StandardCharsets.UTF_8);
    }
    assertThat(text.toString())
        .as("%s differs: regenerate it with -Dcortex.writeGolden=true", expected)
        .isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
  }
}
