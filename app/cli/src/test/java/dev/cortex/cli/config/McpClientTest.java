package dev.cortex.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.config.McpClient.Scope;
import dev.cortex.cli.config.McpClientPaths.Os;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where each client keeps its MCP servers, per operating system and scope. */
class McpClientTest {
  private static final Path WORK = Path.of("/work/project");

  @Test
  void file_onLinux_isUnderTheHomeAndXdgConfig() {
    McpClientPaths paths = new McpClientPaths(Os.LINUX, Path.of("/home/ana"), Map.of(), WORK);

    assertThat(userFile(McpClient.CLAUDE_DESKTOP, paths))
        .isEqualTo("/home/ana/.config/Claude/claude_desktop_config.json");
    assertThat(userFile(McpClient.CLAUDE_CODE, paths)).isEqualTo("/home/ana/.claude.json");
    assertThat(userFile(McpClient.VSCODE, paths)).isEqualTo("/home/ana/.config/Code/User/mcp.json");
    assertThat(userFile(McpClient.CURSOR, paths)).isEqualTo("/home/ana/.cursor/mcp.json");
  }

  @Test
  void file_onLinuxWithXdgConfigHome_followsIt() {
    McpClientPaths paths =
        new McpClientPaths(
            Os.LINUX, Path.of("/home/ana"), Map.of("XDG_CONFIG_HOME", "/home/ana/cfg"), WORK);

    assertThat(userFile(McpClient.CLAUDE_DESKTOP, paths))
        .isEqualTo("/home/ana/cfg/Claude/claude_desktop_config.json");
    assertThat(userFile(McpClient.VSCODE, paths)).isEqualTo("/home/ana/cfg/Code/User/mcp.json");
  }

  @Test
  void file_onMacos_isUnderApplicationSupport() {
    McpClientPaths paths =
        new McpClientPaths(
            Os.MACOS, Path.of("/Users/ana"), Map.of("XDG_CONFIG_HOME", "/ignored"), WORK);

    assertThat(userFile(McpClient.CLAUDE_DESKTOP, paths))
        .isEqualTo("/Users/ana/Library/Application Support/Claude/claude_desktop_config.json");
    assertThat(userFile(McpClient.VSCODE, paths))
        .isEqualTo("/Users/ana/Library/Application Support/Code/User/mcp.json");
    assertThat(userFile(McpClient.CLAUDE_CODE, paths)).isEqualTo("/Users/ana/.claude.json");
    assertThat(userFile(McpClient.CURSOR, paths)).isEqualTo("/Users/ana/.cursor/mcp.json");
  }

  @Test
  void file_onWindows_isUnderAppData() {
    // Path separators follow the machine the test runs on; the structure is what is checked.
    McpClientPaths paths =
        new McpClientPaths(
            Os.WINDOWS, Path.of("/Users/ana"), Map.of("APPDATA", "/Users/ana/Roaming"), WORK);

    assertThat(userFile(McpClient.CLAUDE_DESKTOP, paths))
        .isEqualTo("/Users/ana/Roaming/Claude/claude_desktop_config.json");
    assertThat(userFile(McpClient.VSCODE, paths))
        .isEqualTo("/Users/ana/Roaming/Code/User/mcp.json");
    assertThat(userFile(McpClient.CLAUDE_CODE, paths)).isEqualTo("/Users/ana/.claude.json");
  }

  @Test
  void file_onWindowsWithoutAppData_usesTheRoamingFolderOfTheHome() {
    McpClientPaths paths = new McpClientPaths(Os.WINDOWS, Path.of("/Users/ana"), Map.of(), WORK);

    assertThat(userFile(McpClient.CLAUDE_DESKTOP, paths))
        .isEqualTo("/Users/ana/AppData/Roaming/Claude/claude_desktop_config.json");
  }

  @Test
  void file_projectScope_isInTheWorkingDirectoryAndClaudeDesktopHasNone() {
    McpClientPaths paths = new McpClientPaths(Os.LINUX, Path.of("/home/ana"), Map.of(), WORK);

    assertThat(McpClient.CLAUDE_CODE.file(Scope.PROJECT, paths))
        .contains(WORK.resolve(".mcp.json"));
    assertThat(McpClient.VSCODE.file(Scope.PROJECT, paths))
        .contains(WORK.resolve(".vscode/mcp.json"));
    assertThat(McpClient.CURSOR.file(Scope.PROJECT, paths))
        .contains(WORK.resolve(".cursor/mcp.json"));
    assertThat(McpClient.CLAUDE_DESKTOP.file(Scope.PROJECT, paths)).isEmpty();
  }

  @Test
  void os_fromOsName_recognisesEachFamily() {
    assertThat(Os.of("Windows 11")).isEqualTo(Os.WINDOWS);
    assertThat(Os.of("Mac OS X")).isEqualTo(Os.MACOS);
    assertThat(Os.of("Linux")).isEqualTo(Os.LINUX);
    assertThat(Os.of("FreeBSD")).isEqualTo(Os.LINUX);
  }

  @Test
  void join_wordsWithSpacesOrQuotes_areQuotedForTheShell() {
    List<String> words = List.of("claude", "/Users/ana/My Apps/cortex", "it's", "{\"a\":1}");

    assertThat(McpClientSetup.join(words, Os.LINUX))
        .isEqualTo("claude '/Users/ana/My Apps/cortex' 'it'\\''s' '{\"a\":1}'");
    assertThat(McpClientSetup.join(words, Os.WINDOWS))
        .isEqualTo("claude \"/Users/ana/My Apps/cortex\" \"it's\" \"{\\\"a\\\":1}\"");
  }

  private static String userFile(McpClient client, McpClientPaths paths) {
    return client.file(Scope.USER, paths).orElseThrow().toString();
  }
}
