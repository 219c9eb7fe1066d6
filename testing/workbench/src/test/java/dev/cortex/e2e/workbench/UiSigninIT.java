package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Sign-in to the workbench over HTTP against a real {@code cortex server}: one-time links from
 * {@code cortex ui}, cookie sessions, and the guard's refusals.
 */
class UiSigninIT {
  /** The server's own floor for the answer to a wrong link (UiRoutes.FAILED_SIGNIN_DELAY). */
  private static final Duration FAILED_SIGNIN_DELAY = Duration.ofSeconds(1);

  @TempDir static Path home;
  static AgentServer server;
  static UiClient ui;

  @BeforeAll
  static void start() throws Exception {
    server = new AgentServer(home, Map.of()).start();
    ui = new UiClient(server);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void signin_linkFromCortexUi_givesAStrictHttpOnlyCookie_andWorksOnce() throws Exception {
    String secret = ui.link();
    HttpResponse<String> first = ui.signin(secret);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    String setCookie = first.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie)
        .startsWith("cortex_ui=cxc_")
        .contains("; HttpOnly", "; SameSite=Strict", "; Path=/", "; Max-Age=43200")
        .doesNotContain("Secure");
    String csrf = TestJson.JSON.readTree(first.body()).path("csrf").asString();
    String cookie = "cortex_ui=" + setCookie.substring(10, setCookie.indexOf(';'));

    HttpResponse<String> me = ui.get("/api/ui/me", cookie);
    assertThat(me.statusCode()).isEqualTo(200);
    JsonNode body = TestJson.JSON.readTree(me.body());
    assertThat(body.path("csrf").asString()).isEqualTo(csrf);
    assertThat(body.path("expires_at").isString()).isTrue();
    assertThat(body.path("version").isString()).isTrue();

    long before = System.nanoTime();
    HttpResponse<String> again = ui.signin(secret);
    Duration took = Duration.ofNanos(System.nanoTime() - before);
    assertThat(again.statusCode()).isEqualTo(401);
    assertThat(UiClient.code(again)).isEqualTo("UNAUTHENTICATED");
    assertThat(again.body()).doesNotContain(secret);
    assertThat(took)
        .as("a replayed link is answered only after the delay")
        .isGreaterThanOrEqualTo(FAILED_SIGNIN_DELAY);
  }

  @Test
  void signin_wrongLink_isRefusedAfterTheDelay_andLoggedWithoutIt() throws Exception {
    String wrong = "cxl_" + "A".repeat(43);
    long before = System.nanoTime();
    HttpResponse<String> answer = ui.signin(wrong);
    Duration took = Duration.ofNanos(System.nanoTime() - before);
    assertThat(answer.statusCode()).isEqualTo(401);
    assertThat(UiClient.code(answer)).isEqualTo("UNAUTHENTICATED");
    assertThat(took).isGreaterThanOrEqualTo(FAILED_SIGNIN_DELAY);
    assertThat(server.stderr.toString()).contains("WARN").doesNotContain(wrong);
  }

  @Test
  void signin_withoutItsHeaderOrFromAnotherOrigin_isForbidden() throws Exception {
    String secret = ui.link();
    String body = "{\"link\":\"" + secret + "\"}";
    assertThat(ui.post("/api/ui/signin", null, ui.origin, null, body).statusCode()).isEqualTo(403);
    assertThat(ui.post("/api/ui/signin", null, "https://evil.example", "signin", body).statusCode())
        .isEqualTo(403);
    // The link was not spent by the refused attempts.
    assertThat(ui.signin(secret).statusCode()).isEqualTo(200);
  }

  @Test
  void signin_unknownField_isInvalidArgument() throws Exception {
    HttpResponse<String> answer =
        ui.post("/api/ui/signin", null, ui.origin, "signin", "{\"link\":\"x\",\"extra\":1}");
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(UiClient.code(answer)).isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void api_withoutOrWithAForgedCookie_isUnauthenticated() throws Exception {
    for (String cookie :
        new String[] {null, "cortex_ui=cxc_" + "B".repeat(43), "other=1", "cortex_ui="}) {
      HttpResponse<String> me = ui.get("/api/ui/me", cookie);
      assertThat(me.statusCode()).as("cookie %s", cookie).isEqualTo(401);
      assertThat(UiClient.code(me)).isEqualTo("UNAUTHENTICATED");
      HttpResponse<String> list = ui.post("/api/sessions/list", cookie, ui.origin, "x", "{}");
      assertThat(list.statusCode()).isEqualTo(401);
    }
  }

  @Test
  void api_crossSitePost_isForbidden_theSamePagesPostPasses() throws Exception {
    UiClient.Browser browser = ui.signIn();
    String list = "{}";
    assertThat(
            ui.post(
                    "/api/sessions/list",
                    browser.header(),
                    "https://evil.example",
                    browser.csrf(),
                    list)
                .statusCode())
        .isEqualTo(403);
    assertThat(
            ui.post("/api/sessions/list", browser.header(), null, browser.csrf(), list)
                .statusCode())
        .isEqualTo(403);
    assertThat(ui.post("/api/sessions/list", browser.header(), ui.origin, null, list).statusCode())
        .isEqualTo(403);
    assertThat(
            ui.post("/api/sessions/list", browser.header(), ui.origin, "wrong", list).statusCode())
        .isEqualTo(403);
    HttpResponse<String> page = ui.post("/api/sessions/list", browser, list);
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
  }

  @Test
  void signout_endsThisSession_logoutAllEndsEvery() throws Exception {
    UiClient.Browser one = ui.signIn();
    UiClient.Browser two = ui.signIn();
    UiClient.Browser three = ui.signIn();
    HttpResponse<String> out = ui.post("/api/ui/signout", one, "{}");
    assertThat(out.statusCode()).isEqualTo(200);
    assertThat(out.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
    assertThat(ui.get("/api/ui/me", one.header()).statusCode()).isEqualTo(401);
    assertThat(ui.get("/api/ui/me", two.header()).statusCode()).isEqualTo(200);

    CliRun all = CliRun.run(server, "", "ui", "--logout-all", "--json");
    assertThat(all.exitCode()).as(all.stderr()).isZero();
    assertThat(TestJson.JSON.readTree(all.stdout()).path("ended").asInt())
        .isGreaterThanOrEqualTo(2);
    assertThat(ui.get("/api/ui/me", two.header()).statusCode()).isEqualTo(401);
    assertThat(ui.get("/api/ui/me", three.header()).statusCode()).isEqualTo(401);
  }

  @Test
  void secrets_ofLinksAndCookies_areInNoTableNoLogAndNoOtherAnswer() throws Exception {
    List<String> secrets = new ArrayList<>();
    String spent = ui.link();
    secrets.add(spent);
    HttpResponse<String> signed = ui.signin(spent);
    String setCookie = signed.headers().firstValue("Set-Cookie").orElseThrow();
    String cookie = setCookie.substring(10, setCookie.indexOf(';'));
    secrets.add(cookie);
    secrets.add(ui.link()); // an unused link too
    HttpResponse<String> me = ui.get("/api/ui/me", "cortex_ui=" + cookie);
    assertThat(me.body()).doesNotContain(cookie);

    List<Path> files;
    try (Stream<Path> walk = Files.walk(home)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path file : files) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String secret : secrets) {
        assertThat(text).as("%s holds a secret", home.relativize(file)).doesNotContain(secret);
      }
    }
    for (String secret : secrets) {
      assertThat(server.stderr.toString()).doesNotContain(secret);
    }
  }

  @Test
  void cortexUi_withoutARunningServer_saysSo() throws Exception {
    Path other = home.resolveSibling(home.getFileName() + "-none");
    CortexProcess.Finished run = CortexProcess.run(CortexProcess.env(other), "ui");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.stderr()).contains("no agent server runs", "cortex server");
  }
}
