package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slack's Events API instead of Socket Mode: Slack posts to the webhook's {@code /slack/events},
 * and only a request signed with the signing secret, of the last five minutes, is taken; the URL
 * check is answered; an event starts a session whose reply goes back; the same event sent again is
 * not a second message.
 */
class SlackEventsIT {
  static final String SECRET = "signing-secret-for-tests-7e2b";

  @TempDir static Path home;
  @TempDir static Path work;
  static FakeSlack slack;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    slack = new FakeSlack();
    ChannelSetup.slack(home, slack, "C0EVT", work, "mode = \"events\"\n");
    server =
        new AgentServer(
                home,
                Map.of("SLACK_BOT_TOKEN", FakeSlack.BOT_TOKEN, "SLACK_SIGNING_SECRET", SECRET))
            .start();
    api = new SessionApi(server);
    Eventually.until("auth.test", () -> !slack.calls("auth.test").isEmpty());
  }

  @AfterAll
  static void stop() throws Exception {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
    if (slack != null) {
      slack.close();
    }
  }

  static String sign(String timestamp, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return "v0="
        + HexFormat.of()
            .formatHex(
                mac.doFinal(("v0:" + timestamp + ":" + body).getBytes(StandardCharsets.UTF_8)));
  }

  static HttpResponse<String> post(String body, String timestamp, String signature)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.webhookPort + "/slack/events"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (timestamp != null) {
      request.header("X-Slack-Request-Timestamp", timestamp);
    }
    if (signature != null) {
      request.header("X-Slack-Signature", signature);
    }
    return AgentServer.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String now() {
    return Long.toString(System.currentTimeMillis() / 1000);
  }

  @Test
  void onlySignedRecentRequestsAreTaken_andAnEventIsAnsweredOnce() throws Exception {
    String check = "{\"token\":\"x\",\"challenge\":\"ch-4471\",\"type\":\"url_verification\"}";
    HttpResponse<String> verified = post(check, now(), sign(now(), check));
    assertThat(verified.statusCode()).isEqualTo(200);
    assertThat(TestJson.JSON.readTree(verified.body()).path("challenge").asString())
        .isEqualTo("ch-4471");

    String event =
        TestJson.JSON.writeValueAsString(
            FakeSlack.message("EvE1", "C0EVT", "U0PERSON", "over http", "1700000700.1", null));
    assertThat(post(event, now(), "v0=" + "0".repeat(64)).statusCode()).isEqualTo(401);
    assertThat(post(event, null, null).statusCode()).isEqualTo(401);
    String old = Long.toString(System.currentTimeMillis() / 1000 - 600);
    assertThat(post(event, old, sign(old, event)).statusCode()).isEqualTo(401);
    assertThat(api.call("list", Map.of()).result().toString()).doesNotContain("slack:C0EVT");

    String ts = now();
    assertThat(post(event, ts, sign(ts, event)).statusCode()).isEqualTo(200);
    Eventually.until(
        "the reply",
        AgentServer.LIMIT,
        () ->
            slack.calls("chat.postMessage").stream()
                .anyMatch(c -> "over http".equals(c.form().get("text"))));
    // Slack's retry of the same event: taken, not a second message.
    String again = now();
    assertThat(post(event, again, sign(again, event)).statusCode()).isEqualTo(200);
    assertThat(SessionApi.userTexts(api.transcript("slack-C0EVT"))).containsExactly("over http");
    assertThat(server.stderr.toString())
        .contains("a request to /slack/events was refused")
        .doesNotContain(SECRET, FakeSlack.BOT_TOKEN);
  }
}
