package dev.cortex.server.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a turn gets of an environment's assignments: active ones with {@code ${PLUGIN_DATA}} made
 * real, held-back and missing ones left out with a note, and a server whose data folder cannot be
 * made left out while the plugin's others are kept.
 */
class PluginMaterialsTest {
  @TempDir Path plugins;
  @TempDir Path data;

  Plugin plugin(String id, String mcp) throws Exception {
    Path root = Files.createDirectories(plugins.resolve(id));
    Files.writeString(root.resolve("plugin.json"), "{\"name\": \"" + id + "\"}");
    Files.writeString(root.resolve("mcp.json"), mcp);
    return new PluginCatalog(plugins).get(id).orElseThrow();
  }

  static PluginAssignments.Assignment confirmed(Plugin plugin) {
    return new PluginAssignments.Assignment(
        plugin.id(),
        "default",
        plugin.mcpHash(),
        List.of(),
        "--yes",
        Instant.EPOCH,
        Map.of("db", Map.of("query", "0123")),
        null);
  }

  @Test
  void activeServers_getTheirDataFolder_andHeldOrMissingOnesAreLeftOutWithANote() throws Exception {
    Plugin store =
        plugin(
            "store.v2",
            "{\"mcpServers\": {\"db\": {\"command\": \"node\", \"args\": [\"${PLUGIN_DATA}/x.db\"],"
                + " \"env\": {\"DIR\": \"${PLUGIN_DATA}\"}, \"cwd\": \"${PLUGIN_DATA}\"},"
                + " \"web\": {\"url\": \"https://example.com/mcp\"}}}");
    Plugin changed = plugin("changed", "{\"mcpServers\": {\"a\": {\"command\": \"node\"}}}");
    PluginAssignments.Assignment stale = confirmed(changed);
    Files.writeString(
        plugins.resolve("changed/mcp.json"), "{\"mcpServers\": {\"b\": {\"command\": \"node\"}}}");
    PluginAssignments.Assignment gone =
        new PluginAssignments.Assignment(
            "gone", "default", null, List.of(), "--yes", Instant.EPOCH, Map.of(), null);

    Plugin shifted = plugin("shifted", "{\"mcpServers\": {\"a\": {\"command\": \"node\"}}}");
    PluginAssignments.Assignment toolsChanged =
        new PluginAssignments.Assignment(
            "shifted",
            "default",
            shifted.mcpHash(),
            List.of(),
            "--yes",
            Instant.EPOCH,
            Map.of(),
            "the description of its tool a changed");

    PluginMaterials.Result result =
        PluginMaterials.of(
            new PluginCatalog(plugins), List.of(confirmed(store), stale, gone, toolsChanged), data);

    assertThat(result.servers())
        .extracting(PluginMaterials.Ready::key)
        .containsExactly("plugin-store_v2-db", "plugin-store_v2-web");
    PluginServer.Stdio db = (PluginServer.Stdio) result.servers().get(0).server();
    String dir = data.resolve("store.v2").toString();
    assertThat(db.args()).containsExactly(dir + "/x.db");
    assertThat(db.env()).containsEntry("DIR", dir);
    assertThat(db.cwd()).isEqualTo(dir);
    assertThat(db.needsData()).isFalse();
    assertThat(result.servers().get(0).pins()).containsEntry("query", "0123");
    assertThat(result.servers().get(1).pins()).isNull();
    assertThat(Files.isDirectory(data.resolve("store.v2"))).isTrue();
    assertThat(String.join("\n", result.notes()))
        .contains(
            "plugin changed is held back: its mcp.json changed",
            "plugin gone is missing",
            "plugin shifted is held back: the description of its tool a changed");
  }

  @Test
  void aServerWhoseDataFolderCannotBeMade_isLeftOut_andThePluginsOthersAreKept() throws Exception {
    Plugin plugin =
        plugin(
            "needy",
            "{\"mcpServers\": {\"db\": {\"command\": \"node\", \"args\": [\"${PLUGIN_DATA}\"]},"
                + " \"plain\": {\"command\": \"node\"}}}");
    Path blocked = data.resolve("blocked");
    Files.writeString(blocked, "a file where the folder would go");

    PluginMaterials.Result result =
        PluginMaterials.of(new PluginCatalog(plugins), List.of(confirmed(plugin)), blocked);

    assertThat(result.servers())
        .extracting(PluginMaterials.Ready::key)
        .containsExactly("plugin-needy-plain");
    assertThat(result.notes()).singleElement().asString().contains("server db is left out");
  }
}
