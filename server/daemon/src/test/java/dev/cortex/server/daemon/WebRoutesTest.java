package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.http.HttpHost;
import dev.cortex.models.ModelPrices;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Web;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionEnvironment;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The web routes over real loopback HTTP on a real database: deliveries land in the session's
 * outputs with one attachment entry each, a refusal writes nothing, files and views are served with
 * the headers that keep them from running in the workbench's origin, decisions take actions and
 * boards bind sessions.
 */
class WebRoutesTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10, 0, 0, 0, 13};

  @TempDir Path dir;
  Database database;
  SessionService sessions;
  WebService web;
  HttpHost host;
  Path home;
  Path work;
  String webSession;
  String cliSession;
  final List<WebChange> changes = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    home = Files.createDirectories(dir.resolve("home"));
    work = Files.createDirectories(dir.resolve("work"));
    Path program = work.resolve("agent.sh");
    Files.writeString(
        program,
        """
        #!/bin/sh
        read -r line
        echo '{"type":"text","text":"ok"}'
        echo '{"type":"end","status":"completed","result":"ok"}'
        """);
    assertThat(program.toFile().setExecutable(true)).isTrue();
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    database =
        new Database(home, List.of(SessionsSchema.area(), WebSchema.area()), Clock.systemUTC());
    sessions =
        new SessionService(
            new SessionStore(() -> database, clock),
            new Executions(() -> database, clock),
            new Costs(() -> database, clock),
            Map.of(CommandBackend.NAME, new CommandBackend()),
            new SessionEnvironment(
                new CortexHome(home, home.resolve("data")),
                Map.of("PATH", System.getenv("PATH")),
                "token",
                () -> 3001),
            () -> Budgets.NONE,
            new SessionSettings("command", null, Duration.ofMinutes(1)),
            ModelPrices.shipped(),
            clock,
            AllowlistCheck.NONE);
    webSession = session("w1", "web:page-1", program);
    cliSession = session("c1", null, program);
    web = new WebService(() -> database, sessions, home.resolve("workspace"), clock, null);
    web.onChange(changes::add);
    WebRoutes routes = new WebRoutes(web, sessions, s -> null, "test");
    HttpHost.Builder builder =
        HttpHost.builder("web-routes-test").connector("api", "127.0.0.1", 0, null);
    routes.handlers().forEach((route, handler) -> builder.route("api", route, handler));
    routes.apiHandlers().forEach((route, handler) -> builder.route("api", route, handler));
    routes.uiHandlers().forEach((route, handler) -> builder.route("api", route, handler));
    host = builder.start();
  }

  private String session(String name, String channel, Path program) throws SessionException {
    SessionService.NewSession request =
        new SessionService.NewSession(
            name,
            channel,
            null,
            "command",
            null,
            null,
            null,
            null,
            null,
            List.of(program.toString()),
            work,
            null);
    return (channel == null ? sessions.create(request) : sessions.createFromFrontDoor(request))
        .id();
  }

  @AfterEach
  void stop() {
    host.close();
    sessions.close();
    database.close();
  }

  record Answer(int status, JsonNode body) {}

  Answer post(String route, String body) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port("api") + route))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), WireJson.mapper().readTree(response.body()));
  }

  HttpResponse<byte[]> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port("api") + path)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private List<Transcript.Entry> transcript(String session) throws SessionException {
    return sessions.transcript(session, 0, 100);
  }

  private List<Transcript.Entry> attachments(String session) throws SessionException {
    return transcript(session).stream()
        .filter(e -> e.kind() == Transcript.Kind.ATTACHMENT)
        .toList();
  }

  /**
   * The first user message of the session's transcript, once its turn recorded it (the turn starts
   * on its own thread); polled with a deadline, never timed.
   */
  private String userMessage(String session) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      for (Transcript.Entry e : transcript(session)) {
        if (e.kind() == Transcript.Kind.USER) {
          return e.body();
        }
      }
      Thread.onSpinWait();
    }
    return "";
  }

  @Test
  void sendFile_copiesIntoOutputs_withFreshNames_andOneAttachmentEntry() throws Exception {
    Files.write(work.resolve("chart.png"), PNG);
    Files.writeString(work.resolve("page.html"), "<script>alert(1)</script>");
    String body =
        "{\"session_id\":\""
            + webSession
            + "\",\"files\":[{\"file_path\":\"chart.png\"},{\"file_path\":\"page.html\"},"
            + "{\"file_path\":\"chart.png\"}],\"caption\":\"Results\"}";

    Answer sent = post(Web.SEND_FILE, body);

    assertThat(sent.status()).isEqualTo(200);
    JsonNode files = sent.body().path("result").path("files");
    assertThat(files.get(0).path("name").asString()).isEqualTo("chart.png");
    assertThat(files.get(0).path("media_type").asString()).isEqualTo("image/png");
    assertThat(files.get(0).path("preview").asString()).isEqualTo("image");
    assertThat(files.get(1).path("media_type").asString()).isEqualTo("text/html");
    assertThat(files.get(1).path("preview").asString()).isEqualTo("none");
    assertThat(files.get(2).path("name").asString()).isEqualTo("chart (2).png");
    Path outputs = home.resolve("workspace/outputs").resolve(webSession);
    assertThat(Files.readAllBytes(outputs.resolve("chart (2).png"))).isEqualTo(PNG);
    List<Transcript.Entry> entries = attachments(webSession);
    assertThat(entries).hasSize(1);
    JsonNode entry = WireJson.mapper().readTree(entries.get(0).body());
    assertThat(entry.path("type").asString()).isEqualTo("files");
    assertThat(entry.path("caption").asString()).isEqualTo("Results");
    assertThat(entries.get(0).body()).doesNotContain("alert(1)");

    String png = files.get(0).path("file_id").asString();
    HttpResponse<byte[]> image = get("/api/web/files/" + webSession + "/" + png);
    assertThat(image.statusCode()).isEqualTo(200);
    assertThat(image.body()).isEqualTo(PNG);
    assertThat(image.headers().firstValue("content-type")).hasValue("image/png");
    assertThat(image.headers().firstValue("content-disposition").orElse("")).startsWith("inline");
    assertThat(image.headers().firstValue("content-security-policy"))
        .hasValue("sandbox allow-downloads; default-src 'none'; frame-ancestors 'none'");
    String html = files.get(1).path("file_id").asString();
    HttpResponse<byte[]> page = get("/api/web/files/" + webSession + "/" + html);
    assertThat(page.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
    assertThat(page.headers().firstValue("content-disposition").orElse(""))
        .startsWith("attachment");
    assertThat(get("/api/web/files/" + cliSession + "/" + png).statusCode()).isEqualTo(404);
  }

  @Test
  void sendFile_oneMissingFile_writesNothing() throws Exception {
    Files.write(work.resolve("chart.png"), PNG);
    Answer refused =
        post(
            Web.SEND_FILE,
            "{\"session_id\":\""
                + webSession
                + "\",\"files\":[{\"file_path\":\"chart.png\"},{\"file_path\":\"gone.txt\"}]}");

    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.body().path("error").path("code").asString())
        .isEqualTo(Web.Codes.FILE_UNREADABLE);
    assertThat(refused.body().path("error").path("message").asString())
        .contains("gone.txt")
        .doesNotContain(work.toString());
    assertThat(home.resolve("workspace/outputs").resolve(webSession)).doesNotExist();
    assertThat(transcript(webSession)).isEmpty();
  }

  @Test
  void deliveries_fromASessionNotOnTheWeb_areRefused() throws Exception {
    Answer refused =
        post(
            Web.SEND_DECISION,
            "{\"session_id\":\""
                + cliSession
                + "\",\"decisions\":[{\"title\":\"t\",\"decision\":\"d\",\"context\":\"c\","
                + "\"reasoning\":\"r\"}]}");

    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.body().path("error").path("code").asString()).isEqualTo(Web.Codes.NOT_WEB);
    assertThat(transcript(cliSession)).isEmpty();
  }

  @Test
  void aBrokenBody_isInvalidArgument_namingTheRule() throws Exception {
    Answer unknown =
        post(Web.SEND_VIEW, "{\"session_id\":\"" + webSession + "\",\"title\":\"T\",\"x\":1}");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body().path("error").path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    Answer height =
        post(
            Web.SEND_VIEW,
            "{\"session_id\":\""
                + webSession
                + "\",\"title\":\"T\",\"html\":\"<p/>\",\"height\":90}");
    assertThat(height.body().path("error").path("message").asString()).contains("height");
    assertThat(transcript(webSession)).isEmpty();
  }

  @Test
  void sendView_ofAFileOutsideTheWorkingDirectory_orTooLarge_writesNothing() throws Exception {
    Files.writeString(dir.resolve("outside.html"), "<p>out</p>");
    Files.write(work.resolve("big.html"), new byte[Web.MAX_VIEW_FILE_BYTES + 1]);
    for (String path : List.of("../outside.html", "big.html", "missing.html")) {
      Answer refused =
          post(
              Web.SEND_VIEW,
              "{\"session_id\":\""
                  + webSession
                  + "\",\"title\":\"T\",\"file_path\":\""
                  + path
                  + "\"}");
      assertThat(refused.status()).as(path).isEqualTo(400);
      assertThat(refused.body().path("error").path("code").asString())
          .isEqualTo(Web.Codes.FILE_UNREADABLE);
      assertThat(refused.body().path("error").path("message").asString())
          .doesNotContain(dir.toString());
    }
    assertThat(home.resolve("workspace/outputs").resolve(webSession)).doesNotExist();
    assertThat(transcript(webSession)).isEmpty();
  }

  @Test
  void sendView_isServedSandboxed_andKeepsItsWidth() throws Exception {
    Answer sent =
        post(
            Web.SEND_VIEW,
            "{\"session_id\":\""
                + webSession
                + "\",\"title\":\"Chart\",\"html\":\"<h1>hi</h1>\",\"height\":400}");
    String id = sent.body().path("result").path("attachment").asString();
    assertThat(
            home.resolve("workspace/outputs").resolve(webSession).resolve("views/" + id + ".html"))
        .hasContent("<h1>hi</h1>");
    JsonNode entry = WireJson.mapper().readTree(attachments(webSession).get(0).body());
    assertThat(entry.path("width").asString()).isEqualTo("wide");
    assertThat(entry.path("height").asInt()).isEqualTo(400);

    HttpResponse<byte[]> view = get("/api/web/views/" + webSession + "/" + id);
    assertThat(view.statusCode()).isEqualTo(200);
    assertThat(view.headers().firstValue("content-type").orElse("")).startsWith("text/html");
    assertThat(view.headers().firstValue("content-security-policy").orElse(""))
        .startsWith("sandbox allow-scripts; default-src 'none'")
        .endsWith("; frame-ancestors 'self'");
    assertThat(view.headers().firstValue("x-frame-options")).isEmpty();
    assertThat(get("/api/web/views/" + cliSession + "/" + id).statusCode()).isEqualTo(404);

    Answer width = post(Web.VIEWS_WIDTH, "{\"attachment\":\"" + id + "\",\"width\":\"full\"}");
    assertThat(width.body().path("result").path("width").asString()).isEqualTo("full");
    assertThat(post(Web.VIEWS_WIDTH, "{\"attachment\":\"" + id + "\",\"width\":\"big\"}").status())
        .isEqualTo(400);
  }

  @Test
  void decisions_approveRecordsOnly_explainSendsTheAgentAMessage() throws Exception {
    Answer sent =
        post(
            Web.SEND_DECISION,
            "{\"session_id\":\""
                + webSession
                + "\",\"decisions\":[{\"title\":\"Use SQLite\",\"decision\":\"SQLite\","
                + "\"context\":\"storage\",\"reasoning\":\"small\"},{\"title\":\"Port\","
                + "\"decision\":\"3004\",\"context\":\"ui\",\"reasoning\":\"free\"}]}");
    String id = sent.body().path("result").path("attachment").asString();

    Answer approved =
        post(
            Web.DECISIONS_ACT,
            "{\"attachment\":\"" + id + "\",\"index\":1,\"action\":\"approve\"}");
    assertThat(approved.body().path("result").path("decisions").get(1).path("state").asString())
        .isEqualTo("approved");
    assertThat(transcript(webSession)).noneMatch(e -> e.kind() == Transcript.Kind.USER);

    Answer explained =
        post(
            Web.DECISIONS_ACT,
            "{\"attachment\":\"" + id + "\",\"index\":0,\"action\":\"explain\"}");
    JsonNode first = explained.body().path("result").path("decisions").get(0);
    assertThat(first.path("state").asString()).isEqualTo("explain");
    assertThat(first.path("actions").get(0).path("text").asString())
        .startsWith("About your decision “Use SQLite”");
    assertThat(userMessage(webSession)).contains("About your decision “Use SQLite”");
    assertThat(changes).extracting(WebChange::kind).containsOnly(WebChange.DECISION);

    assertThat(
            post(
                    Web.DECISIONS_ACT,
                    "{\"attachment\":\"" + id + "\",\"index\":0,\"action\":\"change\"}")
                .status())
        .isEqualTo(400);
    assertThat(
            post(
                    Web.DECISIONS_ACT,
                    "{\"attachment\":\"" + id + "\",\"index\":5,\"action\":\"approve\"}")
                .status())
        .isEqualTo(400);
    Answer shown = post(Web.DECISIONS_SHOW, "{\"attachment\":\"" + id + "\"}");
    assertThat(shown.body().path("result").path("session").asString()).isEqualTo(webSession);
    assertThat(post(Web.DECISIONS_SHOW, "{\"attachment\":\"att_0000000000000000\"}").status())
        .isEqualTo(404);
  }

  @Test
  void boardOpen_createsOrBinds_andMovesASessionBetweenBoards() throws Exception {
    Answer created =
        post(Web.BOARD_OPEN, "{\"session_id\":\"" + webSession + "\",\"title\":\"Q4 Report!\"}");
    JsonNode board = created.body().path("result").path("board");
    assertThat(board.path("slug").asString()).isEqualTo("q4-report");
    assertThat(board.path("id").asString()).matches("brd_[0-9a-f]{12}");
    assertThat(home.resolve("workspace/boards/q4-report/BOARD.md")).content().startsWith("# Q4");
    Answer second =
        post(Web.BOARD_OPEN, "{\"session_id\":\"" + webSession + "\",\"title\":\"Q4 report\"}");
    assertThat(second.body().path("result").path("board").path("slug").asString())
        .isEqualTo("q4-report-2");
    assertThat(web.boardOf(webSession).slug()).isEqualTo("q4-report-2");

    Answer bound =
        post(Web.BOARD_OPEN, "{\"session_id\":\"" + webSession + "\",\"board\":\"q4-report\"}");
    assertThat(bound.body().path("result").path("created").asBoolean()).isFalse();
    assertThat(web.boardOf(webSession).id()).isEqualTo(board.path("id").asString());
    JsonNode listed = post(Web.BOARDS_LIST, "{}").body().path("result").path("boards");
    assertThat(listed).hasSize(2);
    JsonNode shown = post(Web.BOARDS_SHOW, "{\"board\":\"q4-report\"}").body().path("result");
    assertThat(shown.path("board").path("sessions").get(0).asString()).isEqualTo(webSession);
    assertThat(shown.path("content").asString()).startsWith("# Q4 Report!");
    assertThat(shown.path("files").get(0).path("name").asString()).isEqualTo("BOARD.md");
    assertThat(post(Web.BOARDS_SHOW, "{\"board\":\"nope\"}").status()).isEqualTo(404);
    assertThat(
            post(Web.BOARD_OPEN, "{\"session_id\":\"" + webSession + "\",\"board\":\"nope\"}")
                .status())
        .isEqualTo(404);
    assertThat(attachments(webSession)).hasSize(3);
    assertThat(changes).extracting(WebChange::kind).containsOnly(WebChange.BOARD);

    JsonNode of =
        post(Web.BOARD_OF, "{\"session_id\":\"" + cliSession + "\"}").body().path("result");
    assertThat(of.path("web").asBoolean()).isFalse();
  }

  @Test
  void sessionActed_aBoardWhoseFilesChanged_isAChange_anUnchangedOneIsNot() throws Exception {
    post(Web.BOARD_OPEN, "{\"session_id\":\"" + webSession + "\",\"title\":\"Ops\"}");
    String board = web.boardOf(webSession).id();
    web.sessionActed(webSession);
    changes.clear();
    web.sessionActed(webSession);
    web.sessionActed(cliSession);
    assertThat(changes).isEmpty();

    java.nio.file.Files.writeString(
        home.resolve("workspace/boards/ops/BOARD.md"), "# Ops\n\nThe deploy is done.\n");
    web.sessionActed(webSession);
    assertThat(changes).containsExactly(new WebChange(WebChange.BOARD, webSession, board));
    java.nio.file.Files.writeString(home.resolve("workspace/boards/ops/notes.txt"), "n");
    web.sessionActed(webSession);
    web.sessionActed(webSession);
    assertThat(changes).hasSize(2);
  }
}
