package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code web} group end to end: a scripted agent in a {@code web:} session (made through the
 * documented test setting {@code CORTEX_TEST_WEB_SESSIONS=1}) calls the four tools through its
 * session's real MCP server; the server keeps the bytes in the session's outputs and the transcript
 * only their names and ids; a person's explain reaches the agent as a user message; {@code
 * cortex_context} names the board the session is bound to.
 */
class WebGroupIT {
  @TempDir static Path home;
  @TempDir static Path work;

  static SessionServer fixture;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture = SessionServer.start(home, work, null, Map.of("CORTEX_TEST_WEB_SESSIONS", "1"), null);
    server = fixture.server;
    api = fixture.api;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static JsonNode webPost(String route, Map<String, Object> body) throws Exception {
    HttpResponse<String> response =
        server.post(
            route,
            TestJson.JSON.writeValueAsString(body),
            Map.of("x-cortex-token", server.token()));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return TestJson.JSON.readTree(response.body()).path("result");
  }

  @Test
  void theFourTools_deliverIntoAWebSession_andTheTranscriptKeepsOnlyNamesAndIds() throws Exception {
    Files.writeString(work.resolve("report.txt"), "secret payload of the report");
    String id =
        fixture.scripted("web-tools", Map.of("channel", "web:page-1")).path("id").asString();

    api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call("send_file", Map.of("file_path", "report.txt", "caption", "The report")),
                    call(
                        "send_view",
                        Map.of("title", "Chart", "html", "<h1>chart</h1>", "width", "full")),
                    call(
                        "send_decision",
                        Map.of(
                            "decisions",
                            List.of(
                                Map.of(
                                    "title", "Use SQLite",
                                    "decision", "SQLite for the index",
                                    "context", "one process",
                                    "reasoning", "no server to run")))),
                    call("board_open", Map.of("title", "Nightly build")),
                    call("cortex_context", Map.of())))));

    List<JsonNode> transcript = api.transcriptAll(id);
    List<JsonNode> results = ofKind(transcript, "tool_result");
    assertThat(results).hasSize(5);
    results.forEach(
        r -> assertThat(r.path("body").path("is_error").asBoolean()).as("%s", r).isFalse());
    assertThat(content(results.get(0)).path("message").asString()).contains("report.txt");
    assertThat(results.get(0).path("body").path("content").asString())
        .doesNotContain("secret payload");

    List<JsonNode> attachments = ofKind(transcript, "attachment");
    assertThat(attachments)
        .extracting(a -> a.path("body").path("type").asString())
        .containsExactly("files", "view", "decisions", "board");
    assertThat(attachments.toString()).doesNotContain("secret payload", "<h1>chart</h1>");
    assertThat(home.resolve("workspace/outputs").resolve(id).resolve("report.txt"))
        .hasContent("secret payload of the report");
    String view = attachments.get(1).path("body").path("id").asString();
    assertThat(home.resolve("workspace/outputs").resolve(id).resolve("views/" + view + ".html"))
        .hasContent("<h1>chart</h1>");

    JsonNode board = content(results.get(3));
    assertThat(board.path("slug").asString()).isEqualTo("nightly-build");
    assertThat(home.resolve("workspace/boards/nightly-build/BOARD.md")).exists();
    JsonNode context = content(results.get(4));
    assertThat(context.path("board").path("id").asString()).isEqualTo(board.path("id").asString());
    assertThat(context.path("board").path("title").asString()).isEqualTo("Nightly build");

    String decisions = attachments.get(2).path("body").path("id").asString();
    JsonNode acted =
        webPost(
            "/api/web/decisions/act",
            Map.of("attachment", decisions, "index", 0, "action", "explain"));
    assertThat(acted.path("decisions").get(0).path("state").asString()).isEqualTo("explain");
    JsonNode message =
        api.awaitEntry(
            id,
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().contains("About your decision"),
            "the explain request as a user message");
    assertThat(message.path("body").path("source").asString()).isEqualTo("workbench");
    assertThat(message.path("body").path("text").asString()).contains("Use SQLite");
  }

  @Test
  void aSessionNotOnTheWeb_hasNoBoardInItsContext_andCannotCreateWebSessionsWithoutTheSetting()
      throws Exception {
    String id = fixture.scripted("cli-context", Map.of()).path("id").asString();
    api.follow(id, script(Map.of("calls", List.of(call("cortex_context", Map.of())))));
    JsonNode context = content(ofKind(api.transcriptAll(id), "tool_result").get(0));
    assertThat(context.has("board")).as("%s", context).isFalse();
    assertThat(context.path("sessionId").asString()).isEqualTo(id);
  }
}
