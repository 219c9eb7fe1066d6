package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.TestJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/** Plain HTTP to a server's workbench, as its page would talk to it (no browser). */
final class UiClient {
  static final HttpClient HTTP =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(10))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  final AgentServer server;
  final String origin;

  UiClient(AgentServer server) {
    this.server = server;
    this.origin = "http://127.0.0.1:" + server.uiPort;
  }

  /** A signed-in browser: its cookie and csrf token. */
  record Browser(String cookie, String csrf) {
    String header() {
      return "cortex_ui=" + cookie;
    }
  }

  /** The secret of a fresh link from {@code cortex ui --json}. */
  String link() throws Exception {
    CliRun run = CliRun.run(server, "", "ui", "--json");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String url = TestJson.JSON.readTree(run.stdout()).path("url").asString();
    assertThat(url).startsWith(origin + "/signin#");
    return url.substring(url.indexOf('#') + 1);
  }

  HttpResponse<String> signin(String secret) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(origin + "/api/ui/signin"))
            .header("Origin", origin)
            .header("x-cortex-csrf", "signin")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"link\":\"" + secret + "\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  Browser signIn() throws Exception {
    HttpResponse<String> answer = signin(link());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
    String cookie = setCookie.substring("cortex_ui=".length(), setCookie.indexOf(';'));
    return new Browser(cookie, TestJson.JSON.readTree(answer.body()).path("csrf").asString());
  }

  HttpResponse<String> get(String path, String cookieHeader) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(origin + path)).GET();
    if (cookieHeader != null) {
      request.header("Cookie", cookieHeader);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> post(
      String path, String cookieHeader, String originHeader, String csrf, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(origin + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (cookieHeader != null) {
      request.header("Cookie", cookieHeader);
    }
    if (originHeader != null) {
      request.header("Origin", originHeader);
    }
    if (csrf != null) {
      request.header("x-cortex-csrf", csrf);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A guarded POST as the page sends it. */
  HttpResponse<String> post(String path, Browser browser, String body) throws Exception {
    return post(path, browser.header(), origin, browser.csrf(), body);
  }

  static String code(HttpResponse<String> answer) {
    JsonNode body = TestJson.JSON.readTree(answer.body());
    return body.path("error").path("code").asString();
  }
}
