package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.TestJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workbench's connector against a real {@code cortex server}: its routes and none of the
 * webhook's, the pages and assets with their headers, and cookie sessions that expire (the server's
 * clock moved by the fixture's documented test setting, {@code cortex.test.clockOffsetFile}).
 */
class UiConnectorIT {
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
  void serverFile_namesTheWorkbench() throws Exception {
    var self =
        TestJson.JSON.readTree(Files.readString(home.resolve("data").resolve("server.json")));
    assertThat(self.path("ui_port").asInt()).isPositive().isNotEqualTo(server.webhookPort);
    assertThat(self.path("ui_url").asString()).isEqualTo(ui.origin);
  }

  @Test
  void pages_areServedWithTheSecurityHeaders_andAnETag() throws Exception {
    for (String path : new String[] {"/", "/signin"}) {
      HttpResponse<String> page = ui.get(path, null);
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
      assertSecurityHeaders(page);
      assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
          .contains("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'");
      String etag = page.headers().firstValue("ETag").orElseThrow();
      HttpResponse<String> again =
          UiClient.HTTP.send(
              HttpRequest.newBuilder(URI.create(ui.origin + path))
                  .header("If-None-Match", etag)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).isEqualTo(304);
    }
  }

  @Test
  void assets_haveTheirTypes_includingTheChartLibrary() throws Exception {
    HttpResponse<String> script = ui.get("/assets/vendor/uplot/uPlot.iife.min.js", null);
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/javascript");
    HttpResponse<String> css = ui.get("/assets/vendor/uplot/uPlot.min.css", null);
    assertThat(css.statusCode()).isEqualTo(200);
    assertThat(css.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/css");
    assertThat(ui.get("/assets/signin.js", null).statusCode()).isEqualTo(200);
  }

  @Test
  void assets_noTraversalNoListingNoUnknownPath() throws Exception {
    for (String path :
        new String[] {
          "/assets/",
          "/assets/vendor/",
          "/assets/%2e%2e/index.html",
          "/assets/..%2fsignin.html",
          "/assets/vendor/uplot/../../../../META-INF/MANIFEST.MF",
          "/workbench/index.html",
          "/index.htm",
          "/assets/nothing-here.js"
        }) {
      HttpResponse<String> answer = ui.get(path, null);
      assertThat(answer.statusCode()).as(path).isIn(400, 404);
      if (answer.statusCode() == 404) {
        assertSecurityHeaders(answer);
      }
    }
  }

  @Test
  void uiPort_servesNoWebhookRoute_andTheWebhookNoUiRoute() throws Exception {
    UiClient.Browser browser = ui.signIn();
    for (String path : new String[] {"/health", "/webhook/ui/link", "/webhook/devices"}) {
      assertThat(ui.get(path, browser.header()).statusCode()).as(path).isEqualTo(404);
      HttpResponse<String> posted =
          ui.post(path, browser.header(), ui.origin, browser.csrf(), "{}");
      assertThat(posted.statusCode()).as(path).isIn(404, 405);
    }
    String webhook = "http://127.0.0.1:" + server.webhookPort;
    for (String path : new String[] {"/", "/signin", "/api/ui/me", "/assets/signin.js"}) {
      HttpResponse<String> answer =
          UiClient.HTTP.send(
              HttpRequest.newBuilder(URI.create(webhook + path))
                  .header("Cookie", browser.header())
                  .header("x-cortex-token", server.token())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(path).isEqualTo(404);
    }
  }

  @Test
  void cookieSession_expiresAfterSessionHours() throws Exception {
    UiClient.Browser browser = ui.signIn();
    assertThat(ui.get("/api/ui/me", browser.header()).statusCode()).isEqualTo(200);
    server.advanceClock(Duration.ofHours(12).plusMinutes(1));
    dev.cortex.testing.Eventually.until(
        "the session to expire",
        Duration.ofSeconds(20),
        () -> ui.get("/api/ui/me", browser.header()).statusCode() == 401);
  }

  private static void assertSecurityHeaders(HttpResponse<String> answer) {
    assertThat(answer.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(answer.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
    assertThat(answer.headers().firstValue("X-Frame-Options")).hasValue("DENY");
  }
}
