package dev.cortex.e2e.waitpoints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What the agent server's webhook takes in, at its boundary, as a new user meets it: a signal's
 * data from a file by the documented {@code --data @FILE}, secrets refused in any query string
 * before any handler runs, bodies whose unknown fields are refused by name (on the webhook and on
 * the hub's enrolment), and an over-limit body answered 413 instead of a reset connection.
 */
class SignalIntakeIT {
  @TempDir static Path home;
  @TempDir static Path work;

  static AgentServer server;
  static SessionApi api;
  static String sessionId;

  /** The webhook's cap on a request body (the server's JsonRoutes.MAX_BODY). */
  static final int MAX_BODY = 64 * 1024 * 1024;

  @BeforeAll
  static void start() throws Exception {
    Path agent = work.resolve("agent.sh");
    Files.writeString(
        agent,
        "#!/bin/sh\nread -r line\necho '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"ok\"}'\n");
    agent.toFile().setExecutable(true);
    server =
        new AgentServer(home, Map.of())
            .machines("{\"machines\": {\"box1\": {\"platform\": \"linux\"}}}")
            .start();
    api = new SessionApi(server);
    sessionId = api.create(List.of(agent.toString()), work, Map.of()).path("id").asString();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** A waitpoint of the session, created on the webhook as the wait_create tool does. */
  static JsonNode waitpoint(String label) throws Exception {
    HttpResponse<String> created =
        withToken(
            "/webhook/wait/create",
            Map.of("session_id", sessionId, "label", label, "intent", "look"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    return TestJson.JSON.readTree(created.body()).path("result");
  }

  static String id(JsonNode created) {
    return created.path("waitpoint").path("id").asString();
  }

  static String secret(JsonNode created) {
    return created.path("secret").asString();
  }

  /** The waitpoint as wait_check sees it. */
  static JsonNode view(JsonNode created) throws Exception {
    HttpResponse<String> checked =
        withToken("/webhook/wait/check", Map.of("session_id", sessionId, "id", id(created)));
    assertThat(checked.statusCode()).as(checked.body()).isEqualTo(200);
    return TestJson.JSON.readTree(checked.body()).path("result").path("waitpoints").get(0);
  }

  static HttpResponse<String> withToken(String path, Map<String, Object> body) throws Exception {
    return server.post(
        path, TestJson.JSON.writeValueAsString(body), Map.of("x-cortex-token", server.token()));
  }

  static HttpResponse<String> signal(String pathAndQuery, Map<String, Object> body)
      throws Exception {
    return server.post(pathAndQuery, TestJson.JSON.writeValueAsString(body), Map.of());
  }

  static Map<String, Object> signalBody(JsonNode created) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", id(created));
    body.put("secret", secret(created));
    body.put("status", "ok");
    return body;
  }

  static JsonNode error(HttpResponse<String> response) {
    return TestJson.JSON.readTree(response.body()).path("error");
  }

  /**
   * Regression: picocli took {@code --data @FILE} for an argument file, so the documented form
   * failed with exit 2 and nothing was sent or spooled.
   */
  @Test
  void signalByCli_dataAtFile_theDocumentedForm_sendsTheFilesData() throws Exception {
    JsonNode created = waitpoint("metrics from a file");
    Path data = Files.writeString(work.resolve("metrics.json"), "{\"top1\": 0.812}");

    CortexProcess.Finished signalled =
        CortexProcess.run(
            CortexProcess.env(home),
            "signal",
            id(created),
            "--secret",
            secret(created),
            "--data",
            "@" + data);

    assertThat(signalled.exitCode()).as(signalled.stderr()).isZero();
    assertThat(signalled.stdout()).startsWith("accepted:");
    assertThat(view(created).path("reports").get(0).path("data").path("top1").asDouble())
        .isEqualTo(0.812);
  }

  /**
   * Regression: {@code POST /webhook/signal?secret=S} with S in the body too was taken (200,
   * fired), though the docs say a secret in a query string is refused before any handler runs.
   */
  @Test
  void secretInTheQueryString_isRefusedOnEveryRoute_beforeAnyHandler() throws Exception {
    JsonNode created = waitpoint("query secrets");

    HttpResponse<String> signalled =
        signal("/webhook/signal?secret=" + secret(created), signalBody(created));

    assertThat(signalled.statusCode()).as(signalled.body()).isEqualTo(401);
    assertThat(error(signalled).path("code").asString()).isEqualTo("UNAUTHORIZED");
    assertThat(error(signalled).path("message").asString())
        .contains("query string")
        .doesNotContain(secret(created));
    assertThat(view(created).path("state").asString()).isEqualTo("open");
    assertThat(view(created).path("reports")).isEmpty();
    assertThat(signal("/webhook/signal?token=x", signalBody(created)).statusCode()).isEqualTo(401);
    assertThat(
            withToken(
                    "/webhook/wait/check?wait_secret=" + secret(created),
                    Map.of("session_id", sessionId))
                .statusCode())
        .isEqualTo(401);
    HttpResponse<String> health =
        AgentServer.HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + server.webhookPort
                            + "/health?token="
                            + "t".repeat(20)))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(401);
    HttpResponse<String> enrol =
        hub("/enrol?code=123456", "{\"device\": \"box1\", \"code\": \"123456\"}");
    assertThat(enrol.statusCode()).isEqualTo(401);
    assertThat(error(enrol).path("message").asString()).contains("query string");

    // Without the query string, the same signal is taken.
    assertThat(signal("/webhook/signal", signalBody(created)).statusCode()).isEqualTo(200);
  }

  static HttpResponse<String> hub(String path, String body) throws Exception {
    return AgentServer.HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.hubPort + path))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Regression: bodies were bound leniently, so a misspelt field was silently dropped. */
  @Test
  void unknownFields_ofEveryBody_areRefusedByName_andNothingIsRecorded() throws Exception {
    JsonNode created = waitpoint("strict bodies");
    Map<String, Object> typo = signalBody(created);
    typo.put("mesage", "done");

    HttpResponse<String> signalled = signal("/webhook/signal", typo);

    assertThat(signalled.statusCode()).as(signalled.body()).isEqualTo(400);
    assertThat(error(signalled).path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    assertThat(error(signalled).path("message").asString()).contains("'mesage'");
    assertThat(view(created).path("reports")).isEmpty();

    Map<String, Map<String, Object>> bodies = new LinkedHashMap<>();
    bodies.put(
        "/webhook/wait/create",
        Map.of("session_id", sessionId, "label", "x", "intent", "y", "surprise", true));
    bodies.put("/webhook/wait/check", Map.of("session_id", sessionId, "surprise", true));
    bodies.put(
        "/webhook/wait/cancel", Map.of("session_id", sessionId, "id", id(created), "surprise", 1));
    bodies.put(
        "/webhook/remote-command",
        Map.of(
            "command_id",
            "c-1",
            "device",
            "box1",
            "action",
            "bash",
            "params",
            Map.of("command", "true"),
            "timeout_millis",
            1000,
            "surprise",
            1));
    bodies.put("/webhook/remote-command/cancel", Map.of("command_id", "c-1", "surprise", 1));
    bodies.put("/webhook/devices/revoked", Map.of("device", "box1", "surprise", 1));
    for (Map.Entry<String, Map<String, Object>> body : bodies.entrySet()) {
      HttpResponse<String> answer = withToken(body.getKey(), body.getValue());
      assertThat(answer.statusCode()).as(body.getKey() + ": " + answer.body()).isEqualTo(400);
      assertThat(error(answer).path("code").asString()).isEqualTo("INVALID_ARGUMENT");
      assertThat(error(answer).path("message").asString())
          .as(body.getKey())
          .contains("'surprise'")
          .doesNotContain("Exception")
          .doesNotContain("dev.cortex");
    }
    assertThat(view(created).path("state").asString()).isEqualTo("open");

    HttpResponse<String> enrol =
        hub("/enrol", "{\"device\": \"box1\", \"code\": \"123456\", \"surprise\": 1}");
    assertThat(enrol.statusCode()).as(enrol.body()).isEqualTo(400);
    assertThat(error(enrol).path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    assertThat(error(enrol).path("message").asString()).contains("'surprise'");
  }

  /**
   * Regression: a body over the cap sent without {@code Expect: 100-continue} was answered before
   * it was read, and the connection closed under the sender, who often saw a reset instead of the
   * 413.
   */
  @Test
  void overLimitBody_withoutExpectContinue_isReadAndAnswered413_everyTime() throws Exception {
    for (int i = 0; i < 50; i++) {
      assertThat(postWhole("/webhook/signal", MAX_BODY + 64 * 1024))
          .as("attempt %d", i + 1)
          .isEqualTo("HTTP/1.1 413 Payload Too Large");
    }
  }

  /**
   * Sends a body of {@code size} bytes whole, as a plain client does (no {@code Expect:
   * 100-continue}), then reads the status line; a write or read the server cut short says so.
   */
  static String postWhole(String path, int size) throws IOException {
    byte[] chunk = new byte[64 * 1024];
    Arrays.fill(chunk, (byte) 'x');
    try (Socket socket = new Socket("127.0.0.1", server.webhookPort)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      try {
        out.write(
            ("POST "
                    + path
                    + " HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.webhookPort
                    + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + size
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        for (int sent = 0; sent < size; sent += chunk.length) {
          out.write(chunk, 0, Math.min(chunk.length, size - sent));
        }
        out.flush();
      } catch (IOException e) {
        return "the server cut the body short: " + e.getMessage();
      }
      try {
        return new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
            .readLine();
      } catch (IOException e) {
        return "the answer was cut short: " + e.getMessage();
      }
    }
  }
}
