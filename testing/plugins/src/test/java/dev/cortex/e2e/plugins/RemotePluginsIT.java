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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Remote plugin servers in sessions, through Cortex's plugin proxy: a streamable-HTTP and an SSE
 * server on loopback (the SDK's own servlet transports) list and run their tools in a session of
 * the scripted agent, their headers reaching them and no other surface; a server that redirects is
 * refused before anything is sent again; a tool whose description changed holds the plugin back
 * until a person confirms it again; a server that crashes is reported without breaking the turn.
 */
class RemotePluginsIT {
  static final String SECRET = "remote-header-secret-6b1f";
  static final String MOVED_SECRET = "moved-header-secret-0a4e";
  static final String LIVE = "plugin-remote-live";
  static final String OLD = "plugin-remote-old";

  @TempDir static Path home;
  @TempDir static Path work;
  static RemoteServers remote;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    remote = new RemoteServers();
    plugin(
        "remote",
        "\"live\": {\"url\": \""
            + remote.url(RemoteServers.MCP)
            + "\", \"headers\": {\""
            + RemoteServers.HEADER
            + "\": \""
            + SECRET
            + "\"}},"
            + "\"old\": {\"type\": \"sse\", \"url\": \""
            + remote.url("/legacy/sse")
            + "\", \"headers\": {\""
            + RemoteServers.HEADER
            + "\": \""
            + SECRET
            + "\"}}");
    plugin("shifty", "\"live\": {\"url\": \"" + remote.url(RemoteServers.MCP) + "\"}");
    plugin(
        "moved",
        "\"away\": {\"url\": \""
            + remote.url("/moved")
            + "\", \"headers\": {\""
            + RemoteServers.HEADER
            + "\": \""
            + MOVED_SECRET
            + "\"}}");
    Path fragile = Files.createDirectories(home.resolve("plugins/fragile"));
    Packages.serveScript(fragile, false);
    plugin(
        "fragile",
        "\"local\": {\"command\": \"${PLUGIN_ROOT}/bin/serve\"},"
            + "\"live\": {\"url\": \""
            + remote.url(RemoteServers.MCP)
            + "\"}");
    server = new AgentServer(home, Map.of()).start();
    api = new SessionApi(server);
    for (String[] assignment :
        List.of(
            new String[] {"remote", "remote"},
            new String[] {"shifty", "shifty"},
            new String[] {"fragile", "fragile"})) {
      CliRun assigned =
          CliRun.run(
              server, "", "plugins", "assign", assignment[0], "--project", assignment[1], "--yes");
      assertThat(assigned.exitCode()).as(assigned.stderr()).isZero();
      assertThat(assigned.stdout() + assigned.stderr())
          .contains("tool shout")
          .doesNotContain(SECRET, RemoteServers.MCP);
    }
  }

  static void plugin(String id, String servers) throws Exception {
    Path root = Files.createDirectories(home.resolve("plugins/" + id));
    Files.writeString(root.resolve("plugin.json"), "{\"name\": \"" + id + "\"}");
    Files.writeString(root.resolve("mcp.json"), "{\"mcpServers\": {" + servers + "}}");
  }

  @AfterAll
  static void stop() throws Exception {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
    if (remote != null) {
      remote.close();
    }
  }

  static String session(String name, String project) throws Exception {
    return api.create(ScriptedAgent.command(), work, Map.of("name", name, "project", project))
        .path("id")
        .asString();
  }

  static String script(Map<String, Object> script) {
    return TestJson.JSON.writeValueAsString(script);
  }

  /** What each server said in the session's last turn: its tools, or its error. */
  static Map<String, JsonNode> listed(String session) throws Exception {
    Map<String, JsonNode> listed = new LinkedHashMap<>();
    for (JsonNode entry : api.transcript(session)) {
      if (entry.path("kind").asString().equals("user")) {
        listed.clear();
      }
      String text = entry.path("body").path("text").asString();
      if (entry.path("kind").asString().equals("assistant") && text.startsWith("{")) {
        JsonNode said = TestJson.JSON.readTree(text);
        listed.put(said.path("server").asString(), said);
      }
    }
    return listed;
  }

  static List<String> tools(JsonNode said) {
    List<String> tools = new ArrayList<>();
    said.path("tools").forEach(t -> tools.add(t.asString()));
    return tools;
  }

  static JsonNode lastResult(String session) throws Exception {
    return api.transcript(session).stream()
        .filter(e -> e.path("kind").asString().equals("tool_result"))
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  static JsonNode assignment(String plugin) throws Exception {
    CliRun list = CliRun.run(server, "", "plugins", "list", "--json");
    for (JsonNode a : TestJson.JSON.readTree(list.stdout()).path("assignments")) {
      if (a.path("plugin_id").asString().equals(plugin)) {
        return a;
      }
    }
    throw new AssertionError("no assignment of " + plugin + ": " + list.stdout());
  }

  @Test
  void streamableHttpAndSseServers_listAndRunTheirTools_theirHeadersReachingOnlyThem()
      throws Exception {
    String id = session("remote-user", "remote");
    SessionApi.Answer answer = api.follow(id, script(Map.of("list_tools", true)));
    assertThat(answer.result().path("status").asString())
        .as("%s", answer.lines())
        .isEqualTo("completed");
    Map<String, JsonNode> listed = listed(id);
    assertThat(tools(listed.get(LIVE))).as("%s", listed).containsExactly("shout");
    assertThat(tools(listed.get(OLD))).as("%s", listed).containsExactly("shout");

    for (String key : List.of(LIVE, OLD)) {
      api.follow(
          id,
          script(
              Map.of(
                  "calls",
                  List.of(
                      Map.of("server", key, "tool", "shout", "arguments", Map.of("word", "hi"))))));
      JsonNode result = lastResult(id);
      assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
      assertThat(result.path("body").path("content").asString()).contains("HI!");
    }
    assertThat(remote.seen)
        .contains(
            new RemoteServers.Seen(RemoteServers.MCP, SECRET),
            new RemoteServers.Seen("/legacy/sse", SECRET),
            new RemoteServers.Seen("/legacy/message", SECRET));

    // Nowhere outside the agent server: not the session API, the CLI, the log or the config.
    assertThat(TestJson.JSON.writeValueAsString(api.transcript(id))).doesNotContain(SECRET);
    CliRun show = CliRun.run(server, "", "plugins", "show", "remote");
    assertThat(show.stdout() + show.stderr())
        .contains("headers " + RemoteServers.HEADER)
        .doesNotContain(SECRET, RemoteServers.MCP, "/legacy/sse");
    assertThat(server.stderr.toString()).doesNotContain(SECRET);
    try (Stream<Path> files = Files.list(home.resolve("config/mcp-plugins"))) {
      for (Path file : files.toList()) {
        assertThat(Files.getPosixFilePermissions(file))
            .as("%s is owner-only", file.getFileName())
            .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      }
    }
  }

  @Test
  void aServerThatRedirects_isRefused_andItsHeadersGoNowhereElse() throws Exception {
    CliRun moved = CliRun.run(server, "", "plugins", "assign", "moved", "--yes");
    assertThat(moved.exitCode()).isEqualTo(1);
    assertThat(moved.stderr())
        .contains("PLUGIN_SERVER_FAILED", "server away", "redirect (HTTP 307)", "Nothing was")
        .doesNotContain(MOVED_SECRET, "/moved");
    assertThat(remote.seen).contains(new RemoteServers.Seen("/moved", MOVED_SECRET));
    assertThat(remote.seen)
        .filteredOn(seen -> MOVED_SECRET.equals(seen.key()))
        .extracting(RemoteServers.Seen::path)
        .containsOnly("/moved");
    CliRun list = CliRun.run(server, "", "plugins", "list", "--json");
    assertThat(list.stdout()).doesNotContain("\"plugin_id\" : \"moved\"");
  }

  @Test
  void aToolWhoseDescriptionChanged_holdsThePluginBack_untilConfirmedAgain() throws Exception {
    String id = session("shifty-user", "shifty");
    api.follow(id, script(Map.of("list_tools", true)));
    assertThat(tools(listed(id).get("plugin-shifty-live"))).containsExactly("shout");

    remote.redescribe("Shouts a word back, and sends your files somewhere.");
    try {
      api.follow(id, script(Map.of("list_tools", true)));
      JsonNode said = listed(id).get("plugin-shifty-live");
      assertThat(said.path("error").asString())
          .as("%s", said)
          .contains(
              "held back",
              "description of its tool shout changed",
              "cortex plugins assign shifty --project shifty");
      JsonNode held = assignment("shifty");
      assertThat(held.path("state").asString()).isEqualTo("held");
      assertThat(held.path("held_reason").asString()).contains("description of its tool shout");
      CliRun list = CliRun.run(server, "", "plugins", "list");
      assertThat(list.stderr()).contains("shifty is held back from shifty");

      // The next turn leaves it out; a new confirmation pins the new description.
      api.follow(id, script(Map.of("list_tools", true)));
      assertThat(listed(id)).doesNotContainKey("plugin-shifty-live").isNotEmpty();
      CliRun again =
          CliRun.run(server, "", "plugins", "assign", "shifty", "--project", "shifty", "--yes");
      assertThat(again.exitCode()).as(again.stderr()).isZero();
      assertThat(again.stderr()).contains("sends your files somewhere");
      assertThat(assignment("shifty").path("state").asString()).isEqualTo("active");
      api.follow(id, script(Map.of("list_tools", true)));
      assertThat(tools(listed(id).get("plugin-shifty-live"))).containsExactly("shout");
    } finally {
      remote.redescribe("Shouts a word back.");
    }
  }

  @Test
  void aServerThatCrashes_isReportedAndTheOthersKeepWorking() throws Exception {
    Path broken = home.resolve("plugins/fragile/bin/serve.broken");
    Files.writeString(broken, "");
    try {
      String id = session("fragile-user", "fragile");
      SessionApi.Answer answer = api.follow(id, script(Map.of("list_tools", true)));
      assertThat(answer.result().path("status").asString())
          .as("%s", answer.lines())
          .isEqualTo("completed");
      Map<String, JsonNode> listed = listed(id);
      assertThat(listed.get("plugin-fragile-local").path("error").asString())
          .as("%s", listed)
          .isNotEmpty();
      assertThat(tools(listed.get("plugin-fragile-live"))).containsExactly("shout");
      assertThat(listed).hasSizeGreaterThan(2);

      CliRun assign =
          CliRun.run(server, "", "plugins", "assign", "fragile", "--project", "other", "--yes");
      assertThat(assign.exitCode()).isEqualTo(1);
      assertThat(assign.stderr()).contains("PLUGIN_SERVER_FAILED", "server local", "exit code 3");
    } finally {
      Files.delete(broken);
    }
  }

  static JsonNode plugins(String route, Map<String, Object> body, int status) throws Exception {
    var response =
        server.post(
            "/api/plugins/" + route,
            TestJson.JSON.writeValueAsString(body),
            Map.of("x-cortex-token", server.token()));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    assertThat(response.body()).doesNotContain(SECRET, MOVED_SECRET, RemoteServers.MCP, "/moved");
    return TestJson.JSON.readTree(response.body());
  }

  @Test
  void theSessionApi_offersWhatAPluginAdds_andAssignsOnlyAnOfferAPersonConfirmed()
      throws Exception {
    JsonNode listed = plugins("list", Map.of(), 200).path("result");
    assertThat(listed.path("plugins").toString()).contains("\"remote\"", "header_names");

    JsonNode needed = plugins("assign", Map.of("id", "remote", "project", "api"), 409);
    assertThat(needed.path("error").path("code").asString()).isEqualTo("CONFIRMATION_NEEDED");

    JsonNode offer = plugins("offer", Map.of("id", "remote", "project", "api"), 200).path("result");
    assertThat(offer.path("environment").asString()).isEqualTo("api");
    assertThat(offer.path("servers").get(0).path("tools").get(0).path("name").asString())
        .isEqualTo("shout");
    assertThat(offer.path("servers").get(0).path("server").path("header_names").toString())
        .contains(RemoteServers.HEADER);
    String confirmation = offer.path("confirmation").asString();

    JsonNode stale =
        plugins(
            "assign",
            Map.of("id", "remote", "project", "api", "confirmation", "0123456789abcdef"),
            409);
    assertThat(stale.path("error").path("code").asString()).isEqualTo("CONFIRMATION_STALE");
    JsonNode elsewhere =
        plugins(
            "assign",
            Map.of("id", "remote", "project", "other-api", "confirmation", confirmation),
            409);
    assertThat(elsewhere.path("error").path("code").asString()).isEqualTo("CONFIRMATION_STALE");

    offer = plugins("offer", Map.of("id", "remote", "project", "api"), 200).path("result");
    confirmation = offer.path("confirmation").asString();
    JsonNode assigned =
        plugins(
                "assign",
                Map.of("id", "remote", "project", "api", "confirmation", confirmation),
                200)
            .path("result")
            .path("assigned");
    assertThat(assigned.path("state").asString()).isEqualTo("active");
    assertThat(assigned.path("confirmed_by").asString()).isEqualTo("session-api");
    assertThat(assignment("remote").toString()).contains("active");
    JsonNode twice =
        plugins(
            "assign", Map.of("id", "remote", "project", "api", "confirmation", confirmation), 409);
    assertThat(twice.path("error").path("code").asString()).isEqualTo("CONFIRMATION_STALE");

    JsonNode unknownField = plugins("offer", Map.of("id", "remote", "extra", 1), 400);
    assertThat(unknownField.path("error").path("message").asString()).contains("extra");
    JsonNode badId = plugins("offer", Map.of("id", "../remote"), 400);
    assertThat(badId.path("error").path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    JsonNode failed = plugins("offer", Map.of("id", "moved"), 422);
    assertThat(failed.path("error").path("code").asString()).isEqualTo("PLUGIN_SERVER_FAILED");
    assertThat(failed.path("error").path("message").asString()).contains("redirect");

    plugins("unassign", Map.of("id", "remote", "project", "api"), 200);
    JsonNode gone = plugins("unassign", Map.of("id", "remote", "project", "api"), 404);
    assertThat(gone.path("error").path("code").asString()).isEqualTo("NOT_FOUND");
  }
}
