package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex config mcp --client} through the built jar, writing under a temporary home: each
 * client's file against golden files (regenerate them with {@code -Dcortex.writeGolden=true}), a
 * merge that keeps other servers and keys, idempotence, removal and the files it refuses.
 */
class McpClientConfigIT {
  private static final String LAUNCHER = "/opt/cortex/bin/cortex";

  @TempDir Path dir;
  private Path home;
  private Path project;

  @BeforeEach
  void createHome() throws IOException {
    home = Files.createDirectories(dir.resolve("home"));
    project = Files.createDirectories(dir.resolve("project"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-desktop", "claude-code", "vscode", "cursor"})
  void configMcp_noFileYet_writesTheEntryInTheClientsFormat(String client) throws Exception {
    CortexProcess.Finished done = config("--client", client);

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    assertThat(done.stdout()).contains("added the cortex server to " + userFile(client));
    assertGolden(userFile(client), client + ".json");
    assertThat(backup(userFile(client))).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-desktop", "claude-code", "vscode", "cursor"})
  void configMcp_fileWithOtherServers_keepsThemAndTheOtherKeys(String client) throws Exception {
    String existing = seed(client);

    CortexProcess.Finished done = config("--client", client);

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    assertGolden(userFile(client), client + "-merged.json");
    assertThat(backup(userFile(client))).hasContent(existing);
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-desktop", "claude-code", "vscode", "cursor"})
  void configMcp_runTwice_secondRunChangesNothing(String client) throws Exception {
    seed(client);
    assertThat(config("--client", client).exitCode()).isZero();
    String first = Files.readString(userFile(client));
    String firstBackup = Files.readString(backup(userFile(client)));

    CortexProcess.Finished again = config("--client", client);

    assertThat(again.exitCode()).isZero();
    assertThat(again.stdout()).contains("is up to date");
    assertThat(userFile(client)).hasContent(first);
    assertThat(backup(userFile(client))).hasContent(firstBackup);
  }

  @ParameterizedTest
  @ValueSource(strings = {"claude-desktop", "claude-code", "vscode", "cursor"})
  void configMcp_remove_leavesTheOtherServersAsTheyWere(String client) throws Exception {
    String existing = seed(client);
    assertThat(config("--client", client).exitCode()).isZero();

    CortexProcess.Finished removed = config("--client", client, "--remove");

    assertThat(removed.exitCode()).as(removed.stderr()).isZero();
    assertThat(removed.stdout()).contains("removed the cortex server from");
    assertThat(TestJson.JSON.readTree(userFile(client).toFile()))
        .isEqualTo(TestJson.JSON.readTree(existing));
    assertGolden(userFile(client), client + "-removed.json");
    assertThat(config("--client", client, "--remove").stdout()).contains("nothing to remove");
  }

  @Test
  void configMcp_existingCortexEntry_isUpdatedInPlaceKeepingItsEnv() throws Exception {
    Path file = userFile("cursor");
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        """
        {"mcpServers": {"a": {"command": "a"}, "cortex": {"command": "/old/cortex", "args": ["mcp"],
          "env": {"CORTEX_HOME": "/data/cortex"}}, "z": {"command": "z"}}}
        """);

    CortexProcess.Finished done = config("--client", "cursor", "--bundles", "evidence");

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    assertThat(done.stdout()).contains("updated the cortex server");
    var servers = TestJson.JSON.readTree(file.toFile()).path("mcpServers");
    assertThat(List.copyOf(servers.propertyNames())).containsExactly("a", "cortex", "z");
    assertThat(servers.path("cortex").toString())
        .isEqualTo(
            "{\"command\":\""
                + LAUNCHER
                + "\",\"args\":[\"mcp\",\"--bundles\",\"evidence\"],"
                + "\"env\":{\"CORTEX_HOME\":\"/data/cortex\"}}");
  }

  @Test
  void configMcp_projectScope_writesTheProjectsFile() throws Exception {
    CortexProcess.Finished code = config("--client", "claude-code", "--scope", "project");
    CortexProcess.Finished vscode = config("--client", "vscode", "--scope", "project");

    assertThat(code.exitCode()).as(code.stderr()).isZero();
    assertThat(vscode.exitCode()).as(vscode.stderr()).isZero();
    assertGolden(project.resolve(".mcp.json"), "claude-code.json");
    assertGolden(project.resolve(".vscode/mcp.json"), "vscode.json");
    assertThat(code.stdout()).contains("claude mcp add --scope project cortex -- " + LAUNCHER);
    assertThat(home.resolve(".claude.json")).doesNotExist();
  }

  @Test
  void configMcp_print_writesNothingAndShowsTheClientsCommands() throws Exception {
    CortexProcess.Finished done = config("--client", "vscode", "--print", "--bundles", "core");

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    assertThat(done.stdout())
        .startsWith("# VS Code: " + userFile("vscode") + "\n{\n  \"servers\": {")
        .contains("claude mcp add --scope user cortex -- " + LAUNCHER + " mcp --bundles core")
        .contains(
            "code --add-mcp '{\"name\":\"cortex\",\"type\":\"stdio\",\"command\":\""
                + LAUNCHER
                + "\",\"args\":[\"mcp\",\"--bundles\",\"core\"]}'");
    assertThat(userFile("vscode")).doesNotExist();
  }

  /** Regression: VS Code's mcp.json with comments (JSONC, as VS Code writes it) was refused. */
  @Test
  void configMcp_vscodeFileWithCommentsAndTrailingCommas_keepsThemAndRemovesCleanly()
      throws Exception {
    String existing = Files.readString(golden().resolve("vscode-jsonc-existing.json"));
    Path file = userFile("vscode");
    Files.createDirectories(file.getParent());
    Files.writeString(file, existing);

    CortexProcess.Finished added = config("--client", "vscode");

    assertThat(added.exitCode()).as(added.stderr()).isZero();
    assertGolden(file, "vscode-jsonc-merged.json");
    assertThat(config("--client", "vscode").stdout()).contains("is up to date");
    CortexProcess.Finished removed = config("--client", "vscode", "--remove");
    assertThat(removed.exitCode()).as(removed.stderr()).isZero();
    assertThat(file).hasContent(existing);
  }

  @Test
  void configMcp_commentsInAFileItsClientReadsAsPlainJson_isRefusedAndLeftAlone() throws Exception {
    Path file = userFile("claude-code");
    String text = "{\n  // my servers\n  \"mcpServers\": {}\n}\n";
    Files.writeString(file, text);

    CortexProcess.Finished done = config("--client", "claude-code");

    assertThat(done.exitCode()).isEqualTo(1);
    assertThat(done.stderr())
        .contains(file + " has comments, which Claude Code does not allow")
        .contains("Nothing was changed.");
    assertThat(file).hasContent(text);
    assertThat(backup(file)).doesNotExist();
  }

  /** Regression: a trailing comma was read past and the file rewritten without it (exit 0). */
  @Test
  void configMcp_fileWithATrailingComma_isRefusedAndLeftAlone() throws Exception {
    Path file = userFile("claude-desktop");
    Files.createDirectories(file.getParent());
    String text = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"},\n  }\n}\n";
    Files.writeString(file, text);

    CortexProcess.Finished done = config("--client", "claude-desktop");

    assertThat(done.exitCode()).isEqualTo(1);
    assertThat(done.stderr())
        .contains("is not valid JSON (line 4")
        .contains("Nothing was changed.");
    assertThat(file).hasContent(text);
    assertThat(backup(file)).doesNotExist();
  }

  @Test
  void configMcp_fileThatIsNotJson_isRefusedWithWhereItBreaks() throws Exception {
    Path file = userFile("claude-desktop");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\n  \"mcpServers\": {\n    \"a\": \n}\n");

    CortexProcess.Finished done = config("--client", "claude-desktop");

    assertThat(done.exitCode()).isEqualTo(1);
    assertThat(done.stderr()).contains("is not valid JSON (line 4").doesNotContain("Exception");
  }

  @Test
  void configMcp_serversThatAreNotAnObject_isRefused() throws Exception {
    Path file = userFile("cursor");
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"mcpServers\": []}");

    CortexProcess.Finished done = config("--client", "cursor");

    assertThat(done.exitCode()).isEqualTo(1);
    assertThat(done.stderr()).contains("has a \"mcpServers\" that is not an object");
    assertThat(file).hasContent("{\"mcpServers\": []}");
  }

  @Test
  void configMcp_keepsTheFilesPermissionsAndFollowsALinkToIt() throws Exception {
    Path real = dir.resolve("dotfiles/claude.json");
    Files.createDirectories(real.getParent());
    Files.writeString(real, "{}");
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-r--r--"));
    Path link = Files.createSymbolicLink(home.resolve(".claude.json"), real);

    assertThat(config("--client", "claude-code").exitCode()).isZero();

    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(TestJson.JSON.readTree(real.toFile()).path("mcpServers").has("cortex")).isTrue();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(real)))
        .isEqualTo("rw-r--r--");
  }

  /** Regression: a 0644 file came back 0600. */
  @Test
  void configMcp_keepsTheModeOfTheFileAndOfEachOfThreeBackups() throws Exception {
    Path file = userFile("cursor");
    Files.createDirectories(file.getParent());
    String original = "{\"mcpServers\": {}}\n";
    Files.writeString(file, original);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    List<String> versions = new ArrayList<>();
    versions.add(Files.readString(file));
    for (String[] run :
        List.of(
            new String[] {"--client", "cursor"},
            new String[] {"--client", "cursor", "--remove"},
            new String[] {"--client", "cursor", "--bundles", "evidence"},
            new String[] {"--client", "cursor", "--remove"})) {
      assertThat(config(run).exitCode()).isZero();
      versions.add(Files.readString(file));
    }

    assertThat(mode(file)).isEqualTo("rw-r--r--");
    Path newest = backup(file);
    assertThat(newest).hasContent(versions.get(3));
    assertThat(newest.resolveSibling(newest.getFileName() + ".1")).hasContent(versions.get(2));
    assertThat(newest.resolveSibling(newest.getFileName() + ".2")).hasContent(versions.get(1));
    assertThat(newest.resolveSibling(newest.getFileName() + ".3")).doesNotExist();
    assertThat(mode(newest)).isEqualTo("rw-r--r--");
    assertThat(mode(newest.resolveSibling(newest.getFileName() + ".2"))).isEqualTo("rw-r--r--");
  }

  /** Regression: a server set up for another home than the default was not found by the client. */
  @Test
  void configMcp_homeThatIsNotTheDefault_isInTheEntrysEnv() throws Exception {
    Path custom = dir.resolve("custom-home");
    Map<String, String> env = baseEnv();
    env.put("CORTEX_HOME", custom.toString());

    CortexProcess.Finished done = config(env, "--client", "claude-desktop");
    CortexProcess.Finished atDefault = config("--client", "cursor");

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    JsonNode entry =
        TestJson.JSON
            .readTree(userFile("claude-desktop").toFile())
            .path("mcpServers")
            .path("cortex");
    assertThat(entry.path("env").path("CORTEX_HOME").asString()).isEqualTo(custom.toString());
    assertThat(done.stdout()).contains("--env CORTEX_HOME=" + custom + " cortex -- ");
    assertThat(atDefault.exitCode()).as(atDefault.stderr()).isZero();
    JsonNode plain =
        TestJson.JSON.readTree(userFile("cursor").toFile()).path("mcpServers").path("cortex");
    assertThat(plain.has("env")).as(plain.toString()).isFalse();
  }

  /** Regression: the default home followed Java's user.home, the clients' files $HOME. */
  @Test
  void configMcp_withoutCortexHome_usesTheHomeUnderHomeLikeTheClientsFiles() throws Exception {
    Map<String, String> env = baseEnv();
    env.remove("CORTEX_HOME");

    CortexProcess.Finished written = config(env);
    CortexProcess.Finished client = config(env, "--client", "claude-code");

    assertThat(written.exitCode()).as(written.stderr()).isZero();
    assertThat(home.resolve(".local/share/cortex/config/mcp-config.json")).isRegularFile();
    assertThat(client.exitCode()).as(client.stderr()).isZero();
    JsonNode entry =
        TestJson.JSON.readTree(userFile("claude-code").toFile()).path("mcpServers").path("cortex");
    assertThat(entry.path("env").isEmpty()).as(entry.toString()).isTrue();
  }

  @Test
  void configMcp_readOnlyAndToolLists_arePassedToTheEntrysServer() throws Exception {
    CortexProcess.Finished done =
        config(
            "--client",
            "claude-code",
            "--bundles",
            "core,evidence",
            "--read-only",
            "--tools",
            "current_time,cortex_review",
            "--exclude-tools",
            "remote_bash");

    assertThat(done.exitCode()).as(done.stderr()).isZero();
    JsonNode args =
        TestJson.JSON
            .readTree(userFile("claude-code").toFile())
            .path("mcpServers")
            .path("cortex")
            .path("args");
    assertThat(args.toString())
        .isEqualTo(
            "[\"mcp\",\"--bundles\",\"core,evidence\",\"--read-only\",\"--tools\","
                + "\"current_time,cortex_review\",\"--exclude-tools\",\"remote_bash\"]");
    assertThat(done.stdout())
        .contains(
            "-- /opt/cortex/bin/cortex mcp --bundles core,evidence --read-only --tools"
                + " current_time,cortex_review --exclude-tools remote_bash");
  }

  @Test
  void configMcp_badUsage_exitsTwoAndWritesNothing() throws Exception {
    assertUsage(config("--client", "emacs"), "unknown client 'emacs'. Clients: claude-desktop,");
    assertUsage(config("--client", "claude-desktop", "--scope", "project"), "has no project scope");
    assertUsage(config("--client", "cursor", "--scope", "team"), "--scope is user or project");
    assertUsage(config("--client", "cursor", "--print", "--remove"), "leave out --remove");
    assertUsage(config("--client", "cursor", "--bundles", "nope"), "Unknown capability group");
    assertUsage(config("--print"), "need --client");
    assertUsage(config("--read-only"), "need --client");
    assertUsage(config("--client", "cursor", "--tools", "a b"), "--tools takes a comma list");
    assertUsage(config("--client", "cursor", "--exclude-tools", ""), "--exclude-tools takes");
    assertUsage(config("--client", "cursor", "--remove", "--read-only"), "leave out --bundles");
    try (var files = Files.walk(home)) {
      assertThat(files.filter(Files::isRegularFile).toList()).isEmpty();
    }
  }

  private static void assertUsage(CortexProcess.Finished done, String message) {
    assertThat(done.exitCode()).as(done.stderr()).isEqualTo(2);
    assertThat(done.stderr()).contains(message);
  }

  private CortexProcess.Finished config(String... args) throws Exception {
    return config(baseEnv(), args);
  }

  /**
   * The environment of a run: the temporary HOME, and the default home under it as CORTEX_HOME (the
   * entry then needs none).
   */
  private Map<String, String> baseEnv() {
    Map<String, String> env = CortexProcess.env(home.resolve(".local/share/cortex"));
    env.put("HOME", home.toString());
    env.remove("XDG_CONFIG_HOME");
    env.remove("XDG_DATA_HOME");
    env.put("CORTEX_LAUNCHER", LAUNCHER);
    return env;
  }

  private static String mode(Path file) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
  }

  private CortexProcess.Finished config(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("config", "mcp"));
    command.addAll(List.of(args));
    ProcessBuilder builder =
        new ProcessBuilder(CortexProcess.command(command.toArray(String[]::new)));
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.directory(project.toFile());
    Process process = builder.start();
    process.getOutputStream().close();
    var err = new java.io.ByteArrayOutputStream();
    Thread pump =
        new Thread(
            () -> {
              try {
                process.getErrorStream().transferTo(err);
              } catch (IOException ignored) {
                // the process went away
              }
            });
    pump.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    pump.join();
    return new CortexProcess.Finished(code, out, err.toString(StandardCharsets.UTF_8));
  }

  /** The user-scope file of {@code client} on Linux, under the temporary home. */
  private Path userFile(String client) {
    return switch (client) {
      case "claude-desktop" -> home.resolve(".config/Claude/claude_desktop_config.json");
      case "claude-code" -> home.resolve(".claude.json");
      case "vscode" -> home.resolve(".config/Code/User/mcp.json");
      case "cursor" -> home.resolve(".cursor/mcp.json");
      default -> throw new IllegalArgumentException(client);
    };
  }

  private String seed(String client) throws IOException {
    String existing = Files.readString(golden().resolve(client + "-existing.json"));
    Files.createDirectories(userFile(client).getParent());
    Files.writeString(userFile(client), existing);
    return existing;
  }

  private static Path backup(Path file) {
    return file.resolveSibling(file.getFileName() + ".cortex-backup");
  }

  private static void assertGolden(Path actual, String name) throws IOException {
    Path expected = golden().resolve(name);
    if (Boolean.getBoolean("cortex.writeGolden")) {
      Files.copy(actual, expected, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    assertThat(actual)
        .as("%s differs from %s: regenerate it with -Dcortex.writeGolden=true", actual, expected)
        .hasSameTextualContentAs(expected);
  }

  private static Path golden() {
    return Checkout.path("testing/mcp/src/test/resources/mcp-client-config");
  }
}
