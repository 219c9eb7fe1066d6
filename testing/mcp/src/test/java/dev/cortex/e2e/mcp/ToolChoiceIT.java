package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexHttp;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Listed;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.TestJson;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Choosing tools: {@code cortex mcp --read-only}, {@code --tools} and {@code --exclude-tools},
 * asserted from {@code tools/list} over stdio and streamable HTTP, and the one default composition
 * that {@code cortex mcp}, {@code tools list} and {@code tools call} share.
 */
class ToolChoiceIT {
  @TempDir Path home;

  List<Listed> overStdio(String... args) {
    List<String> command = CortexProcess.command(prepend("mcp", args));
    ServerParameters server =
        ServerParameters.builder(command.get(0))
            .args(command.subList(1, command.size()))
            .env(CortexProcess.env(home))
            .build();
    McpSyncClient client = McpClients.connect(new StdioClientTransport(server, McpClients.MAPPER));
    try {
      return McpClients.list(client);
    } finally {
      client.closeGracefully();
    }
  }

  List<Listed> overHttp(String... args) throws Exception {
    try (CortexHttp server = CortexHttp.start(CortexProcess.env(home), args)) {
      McpSyncClient client =
          McpClients.connect(
              HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port)
                  .endpoint("/mcp")
                  .jsonMapper(McpClients.MAPPER)
                  .build());
      try {
        return McpClients.list(client);
      } finally {
        client.closeGracefully();
      }
    }
  }

  static List<String> names(List<Listed> tools) {
    return tools.stream().map(Listed::name).toList();
  }

  @Test
  void readOnly_servesOnlyReadOnlyTools_overStdioAndHttp() throws Exception {
    for (List<Listed> tools :
        List.of(
            overStdio("--bundles", "all", "--read-only"),
            overHttp("--bundles", "all", "--read-only"))) {
      assertThat(tools).isNotEmpty();
      for (Listed tool : tools) {
        assertThat(tool.annotations().path("readOnlyHint").asBoolean()).as(tool.name()).isTrue();
      }
      assertThat(names(tools))
          .contains("remote_read", "remote_job", "runs_show", "cortex_get_context", "check")
          .doesNotContain(
              "remote_bash",
              "remote_write",
              "remote_job_kill",
              "run",
              "runs_cancel",
              "wait_create");
    }
  }

  @Test
  void toolsAndExcludeTools_chooseAmongTheGroupsTools_overStdioAndHttp() throws Exception {
    String[] only = {"--bundles", "core,evidence", "--tools", "current_time,cortex_health"};
    assertThat(names(overStdio(only))).containsExactly("current_time", "cortex_health");
    assertThat(names(overHttp(only))).containsExactly("current_time", "cortex_health");

    String[] without = {"--exclude-tools", "run,runs_cancel"};
    for (List<String> tools : List.of(names(overStdio(without)), names(overHttp(without)))) {
      assertThat(tools).contains("check", "show", "runs_list", "cortex_review");
      assertThat(tools).doesNotContain("run", "runs_cancel", "remote_bash");
    }
  }

  @Test
  void misspeltTool_stopsStartup_namingTheClosestTool() throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(CortexProcess.env(home), "mcp", "--tools", "runs_lst,check");

    assertThat(run.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr())
        .contains("--tools names runs_lst")
        .contains("did you mean runs_list?")
        .doesNotContain("Exception");

    CortexProcess.Finished elsewhere =
        CortexProcess.run(
            CortexProcess.env(home), "mcp", "--http", "0", "--exclude-tools", "remote_bash");
    assertThat(elsewhere.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(elsewhere.stderr()).contains("remote_bash is a tool of the core group");
  }

  @Test
  void toolsList_andToolsCall_composeAsCortexMcpDoes() throws Exception {
    CortexProcess.Finished list =
        CortexProcess.run(CortexProcess.env(home), "tools", "list", "--json");
    List<String> listed =
        TestJson.JSON
            .readTree(list.stdout())
            .path("tools")
            .valueStream()
            .map(t -> t.path("name").asString())
            .toList();
    assertThat(listed).containsExactlyElementsOf(names(overStdio()));

    CortexProcess.Finished call =
        CortexProcess.run(CortexProcess.env(home), "tools", "call", "current_time", "{}");
    assertThat(call.exitCode()).isEqualTo(CortexProcess.FAILED);
    assertThat(call.stderr())
        .contains("UNKNOWN_TOOL")
        .contains("current_time is a tool of the core group")
        .contains("--bundles core,evidence,workflows");

    CortexProcess.Finished all =
        CortexProcess.run(
            CortexProcess.env(home), "tools", "call", "--bundles", "all", "current_time", "{}");
    assertThat(all.exitCode()).as(all.stderr()).isZero();
  }

  @Test
  void toolsList_text_printsAlignedColumnsCutAtAWord() throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(CortexProcess.env(home), "tools", "list", "--bundles", "all");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<String> lines = run.stdout().lines().toList();
    assertThat(lines.get(0)).startsWith("groups: core, ext,");
    String header = lines.get(1);
    assertThat(header).startsWith("TOOL").contains("GROUP", "ACCESS", "DESCRIPTION");
    int description = header.indexOf("DESCRIPTION");
    for (String line : lines.subList(2, lines.size())) {
      assertThat(line.charAt(description - 1)).as(line).isEqualTo(' ');
      assertThat(line.charAt(description)).as(line).isNotEqualTo(' ');
      String text = line.substring(description);
      assertThat(text.length()).as(line).isLessThanOrEqualTo(72);
      assertThat(text).as(line).matches(".*(\\.|[A-Za-z0-9)`'\"]…)$");
    }
    assertThat(run.stdout()).contains("remote_bash").contains(" write ").contains(" read ");
  }

  private static String[] prepend(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }
}
