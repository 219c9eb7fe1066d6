package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code notifications/cancelled} against the built program. No tool of the shipped groups blocks
 * on demand, so this pins what a client sees from the outside: a cancel is never answered, one for
 * a request already answered (or for {@code initialize}, or an unknown id) changes nothing, later
 * requests are served, and the server logs no warning about it. That a cancelled request in flight
 * gets no response is tested on the transports themselves, in mcp-kit.
 */
class CancellationIT {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  static final String CURRENT_TIME =
      "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\","
          + "\"arguments\":{\"timezone\":\"UTC\"}}}";

  @TempDir Path home;

  static String cancel(String requestId) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
        + requestId
        + ",\"reason\":\"no longer needed\"}}";
  }

  static String ping(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
  }

  @Test
  void stdio_cancels_areNeverAnswered_laterRequestsAre_andNothingIsLogged() throws Exception {
    Process process = CortexProcess.start(CortexProcess.env(home), "mcp", "--bundles", "core");
    try {
      CompletableFuture<String> stderr =
          CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
      OutputStream stdin = process.getOutputStream();
      BufferedReader stdout =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));

      send(stdin, INITIALIZE, INITIALIZED);
      JsonNode initialized = JSON.readTree(stdout.readLine());
      send(stdin, CURRENT_TIME);
      JsonNode time = JSON.readTree(stdout.readLine());
      send(
          stdin,
          cancel("2"),
          cancel("1"),
          cancel("99"),
          cancel("\"unknown\""),
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}",
          ping(3));
      stdin.close();
      List<JsonNode> answers = new ArrayList<>();
      for (String line = stdout.readLine(); line != null; line = stdout.readLine()) {
        answers.add(JSON.readTree(line));
      }
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(initialized.path("result").has("serverInfo")).isTrue();
      assertThat(time.path("id").asInt()).isEqualTo(2);
      assertThat(time.path("result").path("structuredContent").has("utc")).isTrue();
      assertThat(answers).hasSize(1);
      assertThat(answers.get(0).path("id").asInt()).isEqualTo(3);
      assertThat(answers.get(0).has("result")).isTrue();
      assertThat(stderr.get(60, TimeUnit.SECONDS))
          .doesNotContain("No handler registered")
          .doesNotContain("notifications/cancelled");
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void http_cancel_isAccepted_andLaterRequestsAreServed() throws Exception {
    try (HttpServer server = HttpServer.start(CortexProcess.env(home), "--bundles", "core")) {
      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> initialized = post(http, server, INITIALIZE, null);
      String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
      post(http, server, INITIALIZED, session);

      HttpResponse<String> unknown = post(http, server, cancel("99"), session);
      HttpResponse<String> pong = post(http, server, ping(3), session);

      assertThat(unknown.statusCode()).isEqualTo(202);
      assertThat(unknown.body()).isEmpty();
      assertThat(pong.statusCode()).isEqualTo(200);
      assertThat(pong.body()).contains("\"id\":3").contains("\"result\"");
    }
  }

  static void send(OutputStream stdin, String... lines) throws IOException {
    for (String line : lines) {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }
    stdin.flush();
  }

  static HttpResponse<String> post(HttpClient http, HttpServer server, String body, String session)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String readAll(java.io.InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
