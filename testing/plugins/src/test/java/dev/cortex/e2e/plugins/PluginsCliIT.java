package dev.cortex.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex plugins list|show} against the built program on a home with real packages: what
 * each package adds, summarised, its left-out components with their reasons, and never a value of
 * an environment variable, a URL's path or query, or a header's value on any output.
 */
class PluginsCliIT {
  static final String ENV_SECRET = "plugin-env-secret-3c9a";
  static final String HEADER_SECRET = "plugin-header-secret-81d0";
  static final String QUERY_SECRET = "plugin-query-secret-5e77";

  @TempDir Path home;
  Map<String, String> env;

  @BeforeEach
  void packages() throws Exception {
    env = CortexProcess.env(home);
    Path search = Files.createDirectories(home.resolve("plugins/search"));
    Files.writeString(
        search.resolve("plugin.json"),
        "{\"name\": \"Search\", \"version\": \"0.3.1\", \"description\": \"Finds things.\"}");
    Files.writeString(
        search.resolve("mcp.json"),
        "{\"mcpServers\": {"
            + "\"index\": {\"command\": \"node\", \"args\": [\"${PLUGIN_ROOT}/server.js\","
            + " \"--data\", \"${PLUGIN_DATA}\"], \"env\": {\"SEARCH_KEY\": \""
            + ENV_SECRET
            + "\"}},"
            + "\"web\": {\"type\": \"http\", \"url\": \"https://search.example.com/v1/mcp?k="
            + QUERY_SECRET
            + "\", \"headers\": {\"X-Api-Key\": \""
            + HEADER_SECRET
            + "\"}},"
            + "\"leaky\": {\"command\": \"node\", \"env\": {\"T\": \"${HOME}/"
            + ENV_SECRET
            + "\"}}"
            + "}}");
    Files.writeString(search.resolve("server.js"), "// a server\n");
    Files.createDirectories(search.resolve("skills/lookup"));
    Files.writeString(
        search.resolve("skills/lookup/SKILL.md"),
        "---\nname: lookup\ndescription: Looks things up.\n---\nSteps.\n");
    Files.createDirectories(home.resolve("plugins/unfinished"));
  }

  CortexProcess.Finished cortex(String... args) throws Exception {
    CortexProcess.Finished run = CortexProcess.run(env, args);
    assertThat(run.stdout() + run.stderr())
        .doesNotContain(ENV_SECRET, HEADER_SECRET, QUERY_SECRET, "/v1/mcp");
    return run;
  }

  @Test
  void list_and_show_summariseWhatEachPackageAdds_neverAValue() throws Exception {
    CortexProcess.Finished list = cortex("plugins", "list");
    assertThat(list.exitCode()).as(list.stderr()).isZero();
    assertThat(list.stdout()).contains("ID", "SERVERS", "search", "Search", "0.3.1", "unfinished");

    CortexProcess.Finished show = cortex("plugins", "show", "search");
    assertThat(show.exitCode()).as(show.stderr()).isZero();
    assertThat(show.stdout())
        .contains(
            "server index (stdio): node, 3 arguments, env SEARCH_KEY",
            "server web (streamable-http): https://search.example.com, headers X-Api-Key",
            "skill  lookup: Looks things up.",
            "left out: mcp.json: mcpServers.leaky: only ${PLUGIN_ROOT} and ${PLUGIN_DATA} expand");

    CortexProcess.Finished json = cortex("plugins", "show", "search", "--json");
    JsonNode view = TestJson.JSON.readTree(json.stdout());
    assertThat(view.path("usable").asBoolean()).isTrue();
    assertThat(view.path("servers").size()).isEqualTo(2);
    assertThat(view.path("servers").get(1).path("origin").asString())
        .isEqualTo("https://search.example.com");
    assertThat(view.path("mcp_hash").asString()).hasSize(64);
    assertThat(json.stdout()).doesNotContain(home.toString());

    CortexProcess.Finished all = cortex("plugins", "list", "--json");
    JsonNode plugins = TestJson.JSON.readTree(all.stdout()).path("plugins");
    assertThat(plugins.size()).isEqualTo(2);
    assertThat(plugins.get(1).path("usable").asBoolean()).isFalse();
    assertThat(plugins.get(1).path("problems").get(0).path("component").asString())
        .isEqualTo("plugin.json");
  }

  @Test
  void show_ofAnUnknownPackage_failsWithNotFound() throws Exception {
    CortexProcess.Finished show = cortex("plugins", "show", "nothing-here");
    assertThat(show.exitCode()).isEqualTo(1);
    assertThat(show.stderr()).contains("NOT_FOUND", "nothing-here");
    CortexProcess.Finished bad = cortex("plugins", "show", "../search");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.stderr()).contains("NOT_FOUND");
  }
}
