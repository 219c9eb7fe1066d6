package dev.cortex.server.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plugin packages on a real disk: a package that passes every check, each rule broken by one
 * component (which is left out with its reason while the rest loads), and what a view shows.
 */
class PluginCatalogTest {
  static final String ENV_SECRET = "env-value-never-shown-7d1e";
  static final String HEADER_SECRET = "Bearer header-value-never-shown-a9f2";
  static final String URL_SECRET = "query-never-shown-42bb";

  @TempDir Path plugins;
  @TempDir Path outside;

  Path plugin(String id, String manifest, String mcp) throws Exception {
    Path root = Files.createDirectories(plugins.resolve(id));
    if (manifest != null) {
      Files.writeString(root.resolve("plugin.json"), manifest);
    }
    if (mcp != null) {
      Files.writeString(root.resolve("mcp.json"), mcp);
    }
    return root;
  }

  static String manifest(String name) {
    return "{\"name\": \"" + name + "\", \"version\": \"1.2.0\", \"description\": \"d\"}";
  }

  Plugin read(String id) {
    return new PluginCatalog(plugins).get(id).orElseThrow();
  }

  static Map<String, String> problems(Plugin plugin) {
    return plugin.problems().stream()
        .collect(Collectors.toMap(Plugin.Problem::component, Plugin.Problem::reason));
  }

  @Test
  void aGoodPackage_loadsItsServersAndSkills_andItsViewShowsNoValue() throws Exception {
    Path root =
        plugin(
            "search-tools",
            manifest("Search tools"),
            "{\"mcpServers\": {"
                + "\"local\": {\"command\": \"${PLUGIN_ROOT}/bin/server\", \"args\": [\"--db\","
                + " \"${PLUGIN_DATA}/index.db\", \"${PLUGIN_ROOT}/conf.json\"], \"env\": {\"API_KEY\": \""
                + ENV_SECRET
                + "\", \"MODE\": \"quick-mode-value\"}},"
                + "\"node\": {\"type\": \"stdio\", \"command\": \"node\", \"args\": [\"x.js\"]},"
                + "\"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com:8443/mcp?key="
                + URL_SECRET
                + "\", \"headers\": {\"Authorization\": \""
                + HEADER_SECRET
                + "\"}},"
                + "\"events\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:7777/sse\"}"
                + "}}");
    Files.createDirectories(root.resolve("bin"));
    Files.writeString(root.resolve("bin/server"), "#!/bin/sh\n");
    Files.createDirectories(root.resolve("skills/find"));
    Files.writeString(
        root.resolve("skills/find/SKILL.md"),
        "---\nname: find\ndescription: \"Finds things fast.\"\n---\n# Find\nBody.\n");
    Files.createDirectories(root.resolve("skills/plain"));
    Files.writeString(root.resolve("skills/plain/SKILL.md"), "# Plain words\n\nMore.\n");

    Plugin plugin = read("search-tools");
    assertThat(plugin.usable()).isTrue();
    assertThat(plugin.problems()).isEmpty();
    assertThat(plugin.name()).isEqualTo("Search tools");
    assertThat(plugin.version()).isEqualTo("1.2.0");
    assertThat(plugin.servers())
        .extracting(PluginServer::name, PluginServer::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("local", "stdio"),
            org.assertj.core.groups.Tuple.tuple("node", "stdio"),
            org.assertj.core.groups.Tuple.tuple("docs", "streamable-http"),
            org.assertj.core.groups.Tuple.tuple("events", "sse"));
    PluginServer.Stdio local = (PluginServer.Stdio) plugin.servers().get(0);
    assertThat(local.command()).isEqualTo(root.toRealPath() + "/bin/server");
    assertThat(local.args())
        .containsExactly("--db", "${PLUGIN_DATA}/index.db", root.toRealPath() + "/conf.json");
    assertThat(local.needsData()).isTrue();
    assertThat(plugin.servers().get(1).needsData()).isFalse();
    assertThat(plugin.skills())
        .extracting(Plugin.Skill::name, Plugin.Skill::description)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("find", "Finds things fast."),
            org.assertj.core.groups.Tuple.tuple("plain", "Plain words"));

    PluginServer.Summary summary = local.summary();
    assertThat(summary.executable()).isEqualTo("server");
    assertThat(summary.argCount()).isEqualTo(3);
    assertThat(summary.envKeys()).containsExactly("API_KEY", "MODE");
    PluginServer.Summary docs = plugin.servers().get(2).summary();
    assertThat(docs.origin()).isEqualTo("https://docs.example.com:8443");
    assertThat(docs.headerNames()).containsExactly("Authorization");

    String view = JsonMapper.builder().build().writeValueAsString(plugin.view());
    assertThat(view)
        .doesNotContain(
            ENV_SECRET, HEADER_SECRET, URL_SECRET, "quick-mode-value", "/mcp", root.toString());
  }

  @Test
  void eachBrokenServer_isLeftOutWithItsReason_andTheRestLoads() throws Exception {
    Files.writeString(outside.resolve("tool"), "#!/bin/sh\n");
    Path root =
        plugin(
            "mixed",
            manifest("Mixed"),
            "{\"mcpServers\": {"
                + "\"good\": {\"command\": \"python3\"},"
                + "\"token\": {\"command\": \"node\", \"env\": {\"K\": \"${TOKEN}\"}},"
                + "\"plain-http\": {\"url\": \"http://example.com/mcp\"},"
                + "\"creds\": {\"url\": \"https://user:pw@example.com/mcp\"},"
                + "\"fragment\": {\"url\": \"https://example.com/mcp#x\"},"
                + "\"ftp\": {\"url\": \"ftp://example.com/mcp\"},"
                + "\"remote-var\": {\"url\": \"https://example.com/mcp\", \"headers\": {\"A\": \"${PLUGIN_ROOT}\"}},"
                + "\"ctl-header\": {\"url\": \"https://example.com/mcp\", \"headers\": {\"A\": \"v\\u0001secret\"}},"
                + "\"host-header\": {\"url\": \"https://example.com/mcp\", \"headers\": {\"Host\": \"x\"}},"
                + "\"extra\": {\"command\": \"node\", \"timeout\": 5},"
                + "\"escape\": {\"command\": \"../../tool\"},"
                + "\"linked\": {\"command\": \"${PLUGIN_ROOT}/bin/linked\"},"
                + "\"missing\": {\"command\": \"./bin/none\"},"
                + "\"data-escape\": {\"command\": \"node\", \"cwd\": \"${PLUGIN_DATA}/../../x\"},"
                + "\"bad name!\": {\"command\": \"node\"},"
                + "\"neither\": {\"args\": []},"
                + "\"kind\": {\"type\": \"websocket\", \"url\": \"https://example.com\"},"
                + "\"not-object\": 7"
                + "}}");
    Files.createDirectories(root.resolve("bin"));
    Files.createSymbolicLink(root.resolve("bin/linked"), outside.resolve("tool"));

    Plugin plugin = read("mixed");
    assertThat(plugin.servers()).extracting(PluginServer::name).containsExactly("good");
    Map<String, String> problems = problems(plugin);
    assertThat(problems.get("mcp.json: mcpServers.token")).contains("${TOKEN}", "only");
    assertThat(problems.get("mcp.json: mcpServers.plain-http")).contains("https", "loopback");
    assertThat(problems.get("mcp.json: mcpServers.creds")).contains("credentials");
    assertThat(problems.get("mcp.json: mcpServers.fragment")).contains("fragment");
    assertThat(problems.get("mcp.json: mcpServers.ftp")).contains("https");
    assertThat(problems.get("mcp.json: mcpServers.remote-var")).contains("no variables");
    assertThat(problems.get("mcp.json: mcpServers.ctl-header"))
        .contains("visible characters")
        .doesNotContain("secret");
    assertThat(problems.get("mcp.json: mcpServers.host-header")).contains("set by the connection");
    assertThat(problems.get("mcp.json: mcpServers.extra")).contains("unknown field 'timeout'");
    assertThat(problems.get("mcp.json: mcpServers.escape")).contains("outside the plugin");
    assertThat(problems.get("mcp.json: mcpServers.linked")).contains("symbolic link");
    assertThat(problems.get("mcp.json: mcpServers.missing")).contains("does not have");
    assertThat(problems.get("mcp.json: mcpServers.data-escape")).contains("data folder");
    assertThat(problems.get("mcp.json: mcpServers.bad name!")).contains("server name");
    assertThat(problems.get("mcp.json: mcpServers.neither")).contains("'command'", "'url'");
    assertThat(problems.get("mcp.json: mcpServers.kind")).contains("type must be");
    assertThat(problems.get("mcp.json: mcpServers.not-object")).contains("object");
    assertThat(problems).hasSize(17);
    assertThat(String.join(" ", problems.values()))
        .as("a reason never repeats the value")
        .doesNotContain("user:pw", outside.toString(), "example.com");
  }

  @Test
  void filesAndSkillsThatLeadOutside_orAreBad_areLeftOut() throws Exception {
    Files.writeString(outside.resolve("mcp.json"), "{\"mcpServers\": {}}");
    Files.writeString(outside.resolve("SKILL.md"), "# stolen\n");
    Path root = plugin("linky", manifest("Linky"), null);
    Files.createSymbolicLink(root.resolve("mcp.json"), outside.resolve("mcp.json"));
    Files.createDirectories(root.resolve("skills/outside"));
    Files.createSymbolicLink(root.resolve("skills/outside/SKILL.md"), outside.resolve("SKILL.md"));
    Files.createDirectories(root.resolve("skills/Bad_Name"));
    Files.createDirectories(root.resolve("skills/empty"));
    Files.createDirectories(root.resolve("skills/fine"));
    Files.writeString(root.resolve("skills/fine/SKILL.md"), "Fine.\n");

    Plugin plugin = read("linky");
    assertThat(plugin.usable()).isTrue();
    assertThat(plugin.servers()).isEmpty();
    assertThat(plugin.mcpHash()).isNull();
    assertThat(plugin.skills()).extracting(Plugin.Skill::name).containsExactly("fine");
    Map<String, String> problems = problems(plugin);
    assertThat(problems.get("mcp.json")).contains("outside");
    assertThat(problems.get("skills/outside")).contains("outside");
    assertThat(problems.get("skills/Bad_Name")).contains("skill name");
    assertThat(problems.get("skills/empty")).contains("missing");
  }

  @Test
  void aPackageWithoutAGoodManifest_isListedButNotUsable() throws Exception {
    plugin("no-manifest", null, "{\"mcpServers\": {\"a\": {\"command\": \"node\"}}}");
    plugin("broken", "{not json", null);
    plugin("nameless", "{\"version\": \"1\"}", null);
    plugin("Upper", manifest("Upper"), null);
    plugin("fine", manifest("Fine"), "[]");

    List<Plugin> all = new PluginCatalog(plugins).list();
    assertThat(all)
        .extracting(Plugin::id)
        .containsExactly("Upper", "broken", "fine", "nameless", "no-manifest");
    Map<String, Plugin> byId = all.stream().collect(Collectors.toMap(Plugin::id, p -> p));
    assertThat(byId.get("no-manifest").usable()).isFalse();
    assertThat(byId.get("no-manifest").servers()).isEmpty();
    assertThat(problems(byId.get("no-manifest")).get("plugin.json")).contains("missing");
    assertThat(problems(byId.get("broken")).get("plugin.json")).contains("not valid JSON");
    assertThat(problems(byId.get("nameless")).get("plugin.json")).contains("'name' is required");
    assertThat(problems(byId.get("Upper")).get("folder")).contains("not a plugin id");
    assertThat(byId.get("fine").usable()).isTrue();
    assertThat(problems(byId.get("fine")).get("mcp.json")).contains("mcpServers");
    assertThat(new PluginCatalog(plugins.resolve("absent")).list()).isEmpty();
    assertThat(new PluginCatalog(plugins).get("../etc")).isEmpty();
    assertThat(new PluginCatalog(plugins).get("absent")).isEmpty();
  }

  @Test
  void theHashOfMcpJson_changesWithItsContent() throws Exception {
    Path root = plugin("hashed", manifest("Hashed"), "{\"mcpServers\": {}}");
    String before = read("hashed").mcpHash();
    assertThat(before).hasSize(64);
    assertThat(read("hashed").mcpHash()).isEqualTo(before);
    Files.writeString(root.resolve("mcp.json"), "{\"mcpServers\": {\"a\": {\"command\": \"x\"}}}");
    assertThat(read("hashed").mcpHash()).isNotEqualTo(before);
  }

  @Test
  void loopbackHosts_areTheOnlyPlainHttpOnes() {
    assertThat(PluginCatalog.loopback("127.0.0.1")).isTrue();
    assertThat(PluginCatalog.loopback("127.9.8.7")).isTrue();
    assertThat(PluginCatalog.loopback("localhost")).isTrue();
    assertThat(PluginCatalog.loopback("[::1]")).isTrue();
    assertThat(PluginCatalog.loopback("128.0.0.1")).isFalse();
    assertThat(PluginCatalog.loopback("127.0.0.1.example.com")).isFalse();
    assertThat(PluginCatalog.loopback("example.com")).isFalse();
  }
}
