package dev.cortex.e2e.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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

  static RemoteServers remote;

  @TempDir Path home;
  Map<String, String> env;

  @BeforeAll
  static void serve() throws Exception {
    remote = new RemoteServers();
  }

  @AfterAll
  static void stopServing() throws Exception {
    remote.close();
  }

  static String origin() {
    return "http://127.0.0.1:" + remote.port();
  }

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
            + "\"index\": {\"command\": \"${PLUGIN_ROOT}/bin/serve\", \"args\": [\"${PLUGIN_ROOT}/server.js\","
            + " \"--data\", \"${PLUGIN_DATA}\"], \"env\": {\"SEARCH_KEY\": \""
            + ENV_SECRET
            + "\"}},"
            + "\"web\": {\"type\": \"http\", \"url\": \""
            + remote.url(RemoteServers.MCP)
            + "?k="
            + QUERY_SECRET
            + "\", \"headers\": {\"X-Api-Key\": \""
            + HEADER_SECRET
            + "\"}},"
            + "\"leaky\": {\"command\": \"node\", \"env\": {\"T\": \"${HOME}/"
            + ENV_SECRET
            + "\"}}"
            + "}}");
    Files.writeString(search.resolve("server.js"), "// a server\n");
    Packages.serveScript(search, false);
    Files.createDirectories(search.resolve("skills/lookup"));
    Files.writeString(
        search.resolve("skills/lookup/SKILL.md"),
        "---\nname: lookup\ndescription: Looks things up.\n---\nSteps.\n");
    Files.createDirectories(home.resolve("plugins/unfinished"));
    Path notes = Files.createDirectories(home.resolve("plugins/notes/skills/jot"));
    Files.writeString(home.resolve("plugins/notes/plugin.json"), "{\"name\": \"Notes\"}");
    Files.writeString(notes.resolve("SKILL.md"), "Jots things down.\n");
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
            "server index (stdio): serve, 3 arguments, env SEARCH_KEY",
            "server web (streamable-http): " + origin() + ", headers X-Api-Key",
            "skill  lookup: Looks things up.",
            "left out: mcp.json: mcpServers.leaky: only ${PLUGIN_ROOT} and ${PLUGIN_DATA} expand");

    CortexProcess.Finished json = cortex("plugins", "show", "search", "--json");
    JsonNode view = TestJson.JSON.readTree(json.stdout());
    assertThat(view.path("usable").asBoolean()).isTrue();
    assertThat(view.path("servers").size()).isEqualTo(2);
    assertThat(view.path("servers").get(1).path("origin").asString()).isEqualTo(origin());
    assertThat(view.path("mcp_hash").asString()).hasSize(64);
    assertThat(json.stdout()).doesNotContain(home.toString());

    CortexProcess.Finished all = cortex("plugins", "list", "--json");
    JsonNode plugins = TestJson.JSON.readTree(all.stdout()).path("plugins");
    assertThat(plugins.size()).isEqualTo(3);
    assertThat(plugins.get(2).path("usable").asBoolean()).isFalse();
    assertThat(plugins.get(2).path("problems").get(0).path("component").asString())
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

  static JsonNode assignments(CortexProcess.Finished list) {
    return TestJson.JSON.readTree(list.stdout()).path("assignments");
  }

  @Test
  void assign_needsAConfirmationOfWhatItAdds_andAChangedMcpJsonIsHeldBackUntilConfirmedAgain()
      throws Exception {
    CortexProcess.Finished unconfirmed = cortex("plugins", "assign", "search");
    assertThat(unconfirmed.exitCode()).isEqualTo(1);
    assertThat(unconfirmed.stderr()).contains("CONFIRMATION_NEEDED", "--yes");
    assertThat(assignments(cortex("plugins", "list", "--json"))).isEmpty();

    CortexProcess.Finished yes = cortex("plugins", "assign", "search", "--yes");
    assertThat(yes.exitCode()).as(yes.stderr()).isZero();
    assertThat(yes.stderr())
        .contains(
            "adds these MCP servers to sessions without a project",
            "index (stdio): serve, 3 arguments, env SEARCH_KEY",
            "tool current_time",
            "web (streamable-http): " + origin() + ", headers X-Api-Key",
            "tool shout: Shouts a word back.",
            "is assigned to sessions without a project (servers: 2, skills: 1)");
    CortexProcess.Finished project =
        cortex("plugins", "assign", "search", "--project", "proj-a", "--yes");
    assertThat(project.exitCode()).as(project.stderr()).isZero();
    // A plugin that adds no server needs no confirmation.
    CortexProcess.Finished notes = cortex("plugins", "assign", "notes");
    assertThat(notes.exitCode()).as(notes.stderr()).isZero();

    CortexProcess.Finished list = cortex("plugins", "list");
    assertThat(list.stdout()).contains("ASSIGNED", "default, proj-a");
    JsonNode assigned = assignments(cortex("plugins", "list", "--json"));
    assertThat(assigned.size()).isEqualTo(3);
    assertThat(assigned.get(0).path("plugin_id").asString()).isEqualTo("notes");
    assertThat(assigned.get(1).path("environment").asString()).isEqualTo("default");
    assertThat(assigned.get(1).path("state").asString()).isEqualTo("active");
    assertThat(assigned.get(1).path("confirmed_by").asString()).isEqualTo("--yes");

    // What it adds changed: held back everywhere until a person confirms it again.
    Path mcp = home.resolve("plugins/search/mcp.json");
    Files.writeString(
        mcp,
        Files.readString(mcp)
            .replace(
                "\"leaky\"", "\"more\": {\"command\": \"${PLUGIN_ROOT}/bin/serve\"}, \"leaky\""));
    CortexProcess.Finished held = cortex("plugins", "list");
    assertThat(held.stdout()).contains("default (held), proj-a (held)");
    assertThat(held.stderr())
        .contains(
            "search is held back from proj-a", "cortex plugins assign search --project proj-a");
    CortexProcess.Finished again =
        cortex("plugins", "assign", "search", "--project", "proj-a", "--yes");
    assertThat(again.stderr()).contains("more (stdio): serve, 0 arguments");
    assertThat(cortex("plugins", "list").stdout())
        .contains("default (held), proj-a")
        .doesNotContain("proj-a (held)");
    assertThat(assignments(cortex("plugins", "list", "--json")).get(2).path("state").asString())
        .isEqualTo("active");

    CortexProcess.Finished gone = cortex("plugins", "unassign", "search", "--project", "proj-a");
    assertThat(gone.exitCode()).as(gone.stderr()).isZero();
    CortexProcess.Finished twice = cortex("plugins", "unassign", "search", "--project", "proj-a");
    assertThat(twice.exitCode()).isEqualTo(1);
    assertThat(twice.stderr()).contains("NOT_FOUND");
    assertThat(assignments(cortex("plugins", "list", "--json")).size()).isEqualTo(2);

    // Bad input writes nothing.
    CortexProcess.Finished badProject =
        cortex("plugins", "assign", "search", "--project", "no spaces", "--yes");
    assertThat(badProject.exitCode()).isEqualTo(2);
    assertThat(badProject.stderr()).contains("INVALID_ARGUMENT", "--project");
    CortexProcess.Finished unusable = cortex("plugins", "assign", "unfinished", "--yes");
    assertThat(unusable.exitCode()).isEqualTo(1);
    assertThat(unusable.stderr()).contains("PLUGIN_UNUSABLE", "plugin.json");
    CortexProcess.Finished unknown = cortex("plugins", "assign", "nothing", "--yes");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.stderr()).contains("NOT_FOUND");
    assertThat(assignments(cortex("plugins", "list", "--json")).size()).isEqualTo(2);
  }

  @Test
  void assign_onATerminal_asksYesOrNo() throws Exception {
    for (String reply : List.of("n", "y")) {
      ProcessBuilder builder =
          new ProcessBuilder(
              "script",
              "-qec",
              String.join(
                  " ",
                  CortexProcess.command("plugins", "assign", "search", "--project", "tty").stream()
                      .map(a -> "'" + a + "'")
                      .toList()),
              "/dev/null");
      builder.environment().putAll(env);
      builder.environment().remove("CORTEX_ASSUME_YES");
      builder.redirectErrorStream(true);
      Process process = builder.start();
      StringBuilder seen = new StringBuilder();
      var in = process.getInputStream();
      long deadline = System.nanoTime() + java.time.Duration.ofSeconds(120).toNanos();
      while (!seen.toString().contains("[y/N]") && System.nanoTime() < deadline) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        seen.append((char) b);
      }
      process.getOutputStream().write((reply + "\n").getBytes());
      process.getOutputStream().flush();
      String rest = new String(in.readAllBytes());
      int code = process.waitFor();
      assertThat(seen.toString())
          .contains("adds these MCP servers to sessions of project tty", "Assign it? [y/N]")
          .doesNotContain(ENV_SECRET, HEADER_SECRET, QUERY_SECRET);
      if (reply.equals("n")) {
        assertThat(code).isEqualTo(1);
        assertThat(rest).contains("CONFIRMATION_DECLINED");
        assertThat(assignments(cortex("plugins", "list", "--json"))).isEmpty();
      } else {
        assertThat(code).as(rest).isZero();
        JsonNode assigned = assignments(cortex("plugins", "list", "--json"));
        assertThat(assigned.size()).isEqualTo(1);
        assertThat(assigned.get(0).path("confirmed_by").asString()).isEqualTo("terminal");
      }
    }
  }
}
