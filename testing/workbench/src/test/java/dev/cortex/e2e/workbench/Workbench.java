package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * A real agent server with its workbench on a loopback port of its own, for browser tests. Its
 * sessions run the scripted agent ({@link ScriptedAgent}) on {@code web:} channels (the documented
 * test setting {@code CORTEX_TEST_WEB_SESSIONS=1} lets the session API make them), so that the
 * {@code web} group's tools are theirs.
 */
final class Workbench implements AutoCloseable {
  final Path home;
  final Path work;
  final AgentServer server;
  final SessionApi api;
  final int uiPort;
  private int webhookPort;
  private int hubPort;

  private Workbench(Path home, Path work, AgentServer server, int uiPort) {
    this.home = home;
    this.work = work;
    this.server = server;
    this.api = new SessionApi(server);
    this.uiPort = uiPort;
  }

  /** Starts a server in {@code home} whose workbench listens on a port chosen now. */
  static Workbench start(Path home, Path work) throws IOException {
    int port = freePort();
    // A port of its own, kept across a restart so that an open page reconnects to it.
    AgentServer server =
        new AgentServer(
            home,
            Map.of("CORTEX_TEST_WEB_SESSIONS", "1", "CORTEX_UI_PORT", Integer.toString(port)));
    Workbench workbench = new Workbench(home, work, server, port);
    server.start(0, 0);
    workbench.webhookPort = server.webhookPort;
    workbench.hubPort = server.hubPort;
    return workbench;
  }

  /** Stops the server and starts it again on the same ports, with the same home. */
  void restart() throws Exception {
    server.stop();
    server.start(webhookPort, hubPort);
  }

  String url() {
    return "http://127.0.0.1:" + uiPort;
  }

  /** What the server says of itself in data/server.json. */
  JsonNode self() throws IOException {
    return TestJson.JSON.readTree(Files.readString(home.resolve("data/server.json")));
  }

  /** A fresh one-time sign-in link, as {@code cortex ui} asks for it. */
  String link() throws Exception {
    HttpResponse<String> answer =
        server.post("/webhook/ui/link", "{}", Map.of("x-cortex-token", server.token()));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode body = TestJson.JSON.readTree(answer.body());
    JsonNode result = body.has("result") ? body.path("result") : body;
    return result.path("url").asString();
  }

  /** Signs {@code browser} in with a fresh link and waits for the sessions page. */
  void signIn(Browser browser) throws Exception {
    browser.get(link());
    browser.find("body.signed-in");
    browser.find("[data-page='sessions'] .page-header");
  }

  /** A new web session of the scripted agent; returns its id. */
  String session(String name) throws Exception {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", name);
    fields.put("channel", "web:" + UUID.randomUUID());
    return api.create(ScriptedAgent.command(), work, fields).path("id").asString();
  }

  /** POSTs to a webhook route with the token and returns its result. */
  JsonNode webhook(String route, Map<String, ?> body) throws Exception {
    HttpResponse<String> answer =
        server.post(
            route,
            TestJson.JSON.writeValueAsString(body),
            Map.of("x-cortex-token", server.token()));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return TestJson.JSON.readTree(answer.body()).path("result");
  }

  /** The scripted agent's program line, as a person types it into the new-session form. */
  static String programLine() {
    return String.join(" ", ScriptedAgent.command());
  }

  static String script(Map<String, Object> script) {
    return TestJson.JSON.writeValueAsString(script);
  }

  static Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return Map.of("tool", tool, "arguments", arguments);
  }

  static List<JsonNode> ofKind(List<JsonNode> entries, String kind) {
    return entries.stream().filter(e -> e.path("kind").asString().equals(kind)).toList();
  }

  static JsonNode content(JsonNode toolResult) {
    return TestJson.JSON.readTree(toolResult.path("body").path("content").asString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    api.close();
    server.close();
  }
}
