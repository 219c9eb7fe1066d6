package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The command line in-process: exit codes, messages and files written. */
class CommandLineTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path home;

  record Run(int code, String out, String err) {}

  Run run(Map<String, String> extraEnv, String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Map<String, String> env = new HashMap<>();
    env.put("CORTEX_HOME", home.toString());
    env.putAll(extraEnv);
    int code =
        Main.run(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env,
            args);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Run run(String... args) {
    return run(Map.of(), "", args);
  }

  @Test
  void version_printsTheBuildVersion() {
    Run run = run("--version");

    assertThat(run.code()).isZero();
    assertThat(run.out()).startsWith("cortex ").doesNotContain("unknown").doesNotContain("${");
  }

  @Test
  void toolsListJson_keysInAFixedOrder_groupsBeforeTools() {
    // Regression: the listing was a Map.of, whose order changes from one JVM to the next.
    Run run = run("tools", "list", "--json", "--bundles", "core");

    assertThat(run.code()).isZero();
    assertThat(run.out()).startsWith("{\n  \"groups\" : [ \"core\" ],\n  \"tools\" : [");
  }

  @Test
  void noCommand_isUsageError() {
    assertThat(run().code()).isEqualTo(2);
  }

  @Test
  void unknownOption_isUsageError() {
    Run run = run("mcp", "--no-such-flag");

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("--no-such-flag");
  }

  /** Regression: renaming the class Groups to AllGroups had renamed the word in the help too. */
  @Test
  void help_ofTheVerbsThatChooseGroups_speaksOfGroups() {
    assertThat(run("mcp", "--help").out())
        .contains("Groups come from --bundles")
        .contains("Groups to serve when neither")
        .doesNotContain("AllGroups");
    assertThat(run("tools", "list", "--help").out())
        .contains("Groups to list")
        .doesNotContain("AllGroups");
    assertThat(run("tools", "call", "--help").out())
        .contains("Groups to serve the tool from")
        .doesNotContain("AllGroups");
  }

  /**
   * Regression: picocli read {@code --data @FILE}, the documented form, as an argument file (exit
   * 2, nothing sent or spooled); only {@code --data=@FILE} worked.
   */
  @Test
  void signal_dataAtFile_readsTheFileAsTheSignalsData() throws Exception {
    Path data = Files.writeString(home.resolve("metrics.json"), "{\"top1\": 0.812}");

    Run run =
        run("signal", "wp-3fa2c1d0e4b5", "--secret", "wps_s", "--data", "@" + data, "--spool");

    assertThat(run.code()).as(run.err()).isZero();
    try (var files = Files.list(home.resolve("spool"))) {
      Path spooled = files.filter(f -> f.toString().endsWith(".json")).findFirst().orElseThrow();
      assertThat(JSON.readTree(spooled.toFile()).path("data").path("top1").asDouble())
          .isEqualTo(0.812);
    }
  }

  /** No verb of cortex takes picocli's @argument files: an @word stays a word. */
  @Test
  void anAtWord_isNotExpandedAsAnArgumentFile() throws Exception {
    Path arguments = Files.writeString(home.resolve("arguments"), "--version\n");

    Run run = run("@" + arguments);

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.out()).doesNotContain("cortex ");
  }

  @Test
  void toolsCall_readsArgumentsFromStdin() throws Exception {
    Run run =
        run(
            Map.of(),
            "{\"timezone\":\"Europe/Berlin\"}",
            "tools",
            "call",
            "--bundles",
            "core",
            "current_time",
            "-");

    assertThat(run.code()).isZero();
    assertThat(JSON.readTree(run.out()).path("timezone").asString()).isEqualTo("Europe/Berlin");
  }

  @Test
  void toolsCall_invalidJson_isInvalidArgumentWithExitOne() throws Exception {
    Run run = run("tools", "call", "--bundles", "core", "current_time", "{not json");

    assertThat(run.code()).isEqualTo(1);
    assertThat(JSON.readTree(run.out()).path("error").path("code").asString())
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(run.err()).contains("INVALID_ARGUMENT");
  }

  @Test
  void toolsCall_argumentsNotAnObject_isInvalidArgument() throws Exception {
    Run run = run("tools", "call", "--bundles", "core", "current_time", "[1,2]");

    assertThat(run.code()).isEqualTo(1);
    assertThat(run.err()).contains("must be a JSON object");
  }

  @Test
  void toolsCall_unknownTool_isUnknownToolListingAvailableOnes() throws Exception {
    Run run = run("tools", "call", "--bundles", "all", "teleport", "{}");

    assertThat(run.code()).isEqualTo(1);
    assertThat(JSON.readTree(run.out()).path("error").path("code").asString())
        .isEqualTo("UNKNOWN_TOOL");
    assertThat(run.err()).contains("current_time").contains("cortex_health");
  }

  @Test
  void toolsList_defaultComposition_listsEvidenceTools() {
    Run run = run("tools", "list");

    assertThat(run.code()).isZero();
    assertThat(run.out()).contains("groups: evidence, workflows").contains("cortex_health");
  }

  @Test
  void relativeCortexHome_isRefusedClearly() {
    Run run = run(Map.of("CORTEX_HOME", "relative/dir"), "", "config", "mcp");

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err()).contains("CORTEX_HOME must be an absolute");
  }

  @Test
  void configMcp_writesTheSevenFilesOfTheTable_ownerOnly() throws Exception {
    Run run = run(Map.of("CORTEX_LAUNCHER", "/opt/cortex/bin/cortex"), "", "config", "mcp");

    assertThat(run.code()).as(run.err()).isZero();
    Path config = home.resolve("config");
    Map<String, List<String>> expected =
        Map.of(
            "mcp-config.json", List.of("cortex-core", "core,ext"),
            "mcp-config-core.json", List.of("cortex-core", "core"),
            "mcp-config-interaction.json", List.of("cortex-interaction-bridge", "interaction"),
            "mcp-config-slack.json", List.of("cortex-slack", "slack"),
            "mcp-config-feishu.json", List.of("cortex-feishu", "feishu"),
            "mcp-config-web.json", List.of("cortex-web", "web"));
    for (var entry : expected.entrySet()) {
      JsonNode servers =
          JSON.readTree(Files.readString(config.resolve(entry.getKey()))).path("mcpServers");
      JsonNode server = servers.path(entry.getValue().get(0));
      assertThat(servers.size()).as(entry.getKey()).isEqualTo(1);
      assertThat(server.path("command").asString()).isEqualTo("/opt/cortex/bin/cortex");
      assertThat(server.path("args").toString())
          .isEqualTo("[\"mcp\",\"--default-bundles\",\"" + entry.getValue().get(1) + "\"]");
    }
    JsonNode empty = JSON.readTree(Files.readString(config.resolve("mcp-config-empty.json")));
    assertThat(empty.path("mcpServers").size()).isZero();
    try (var files = Files.list(config)) {
      assertThat(files.count()).isEqualTo(7);
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config)))
        .isEqualTo("rwx------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(config.resolve("mcp-config.json"))))
        .isEqualTo("rw-------");
  }

  @Test
  void configMcp_everyWrittenCompositionStartsAServer() throws Exception {
    run(Map.of("CORTEX_LAUNCHER", "/opt/cortex/bin/cortex"), "", "config", "mcp");

    for (String bundles : List.of("core,ext", "core", "interaction", "slack", "feishu", "web")) {
      Run list = run("tools", "list", "--bundles", bundles);
      assertThat(list.code()).as(bundles + ": " + list.err()).isZero();
    }
  }
}
