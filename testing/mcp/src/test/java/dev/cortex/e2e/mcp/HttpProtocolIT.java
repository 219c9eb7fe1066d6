package dev.cortex.e2e.mcp;

import static dev.cortex.testing.JsonRpcLines.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexHttp;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.RawStdio;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The guards of the streamable HTTP transport, against the built program. */
class HttpProtocolIT {
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  @TempDir static Path home;
  static CortexHttp server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_MCP_HTTP_MAX_BODY_BYTES", "2000");
    server = CortexHttp.start(env, "--bundles", "core");
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  static HttpResponse<String> post(String body, String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void initialize_fromLoopback_succeeds() throws Exception {
    HttpResponse<String> response = post(INITIALIZE);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Mcp-Session-Id")).isPresent();
    assertThat(response.body()).contains("\"serverInfo\"");
  }

  @Test
  void foreignOrigin_isRefusedWith403() throws Exception {
    HttpResponse<String> response = post(INITIALIZE, "Origin", "http://evil.example");

    assertThat(response.statusCode()).isEqualTo(403);
    assertThat(response.body()).contains("Origin");
  }

  @Test
  void ownOrigin_isAccepted() throws Exception {
    HttpResponse<String> response = post(INITIALIZE, "Origin", "http://localhost:" + server.port);

    assertThat(response.statusCode()).isEqualTo(200);
  }

  @Test
  void foreignHost_isRefusedWith403() throws Exception {
    String status = rawStatusLine("evil.example:" + server.port, INITIALIZE);

    assertThat(status).contains(" 403 ");
  }

  @Test
  void batch_isRefusedWith400() throws Exception {
    HttpResponse<String> response = post("[" + INITIALIZE + "]");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("batch");
  }

  @Test
  void bodyOverTheCap_isRefusedWith413() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\""
                + "x".repeat(3000)
                + "\"}}");

    assertThat(response.statusCode()).isEqualTo(413);
  }

  /**
   * Regression: a body over the cap sent whole, without {@code Expect: 100-continue}, was answered
   * before it was read, and the connection was sometimes closed under the sender still writing it.
   */
  @Test
  void bodyOverTheCap_sentWholeWithoutExpectContinue_isAnswered413_everyTime() throws Exception {
    byte[] chunk = new byte[16 * 1024];
    java.util.Arrays.fill(chunk, (byte) 'x');
    int size = 256 * 1024;
    for (int i = 0; i < 50; i++) {
      try (Socket socket = new Socket("127.0.0.1", server.port)) {
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        String head =
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:"
                + server.port
                + "\r\nContent-Type: application/json\r\n"
                + "Accept: application/json, text/event-stream\r\nContent-Length: "
                + size
                + "\r\n\r\n";
        String outcome;
        try {
          out.write(head.getBytes(StandardCharsets.US_ASCII));
          for (int sent = 0; sent < size; sent += chunk.length) {
            out.write(chunk);
          }
          out.flush();
          outcome = statusLine(socket.getInputStream());
        } catch (java.io.IOException e) {
          outcome = "cut short: " + e.getMessage();
        }
        assertThat(outcome).as("attempt %d", i + 1).contains(" 413 ");
      }
    }
  }

  /** Regression: without a token configured, a secret in the query string was let through. */
  @Test
  void secretInTheQueryString_isRefusedWith401_withoutATokenToo() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.url + "?access_token=" + "t".repeat(20)))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).contains("query string");
  }

  private static String statusLine(InputStream in) throws java.io.IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) != -1 && c != '\n') {
      line.append((char) c);
    }
    return line.toString();
  }

  @Test
  void toolsCallWithMalformedArguments_isAnsweredInvalidParams() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":\"x\"}}",
            "Mcp-Session-Id",
            server.session());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32602);
    assertThat(body(response).path("id").asInt()).isEqualTo(5);
    assertThat(response.body()).doesNotContain("Exception");
  }

  // ---- JSON-RPC 2.0 and MCP 2025-11-25 edges

  @Test
  void methodThatIsNotAString_withoutId_is400InvalidRequestWithNullId() throws Exception {
    HttpResponse<String> response =
        post("{\"jsonrpc\":\"2.0\",\"method\":1}", "Mcp-Session-Id", server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32600);
    assertThat(body(response).path("id").isNull()).isTrue();
  }

  @Test
  void methodThatIsNotAString_withId_is400InvalidRequestWithThatId() throws Exception {
    HttpResponse<String> response =
        post("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":1}", "Mcp-Session-Id", server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32600);
    assertThat(body(response).path("id").asInt()).isEqualTo(5);
  }

  @Test
  void jsonrpcOtherThan2_is400InvalidRequest() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"1.0\",\"id\":6,\"method\":\"ping\"}",
            "Mcp-Session-Id",
            server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32600);
    assertThat(body(response).path("id").asInt()).isEqualTo(6);
  }

  @Test
  void unparsableBody_is400ParseError() throws Exception {
    HttpResponse<String> response = post("{\"jsonrpc\":", "Mcp-Session-Id", server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32700);
  }

  @Test
  void bodyOfNull_is400InvalidRequestWithoutInternals() throws Exception {
    HttpResponse<String> response = post("null", "Mcp-Session-Id", server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32600);
    assertThat(response.body()).doesNotContain("java").doesNotContain("Cannot invoke");
  }

  @Test
  void unsupportedProtocolVersionHeader_is400_supportedOneIsServed() throws Exception {
    String session = server.session();
    HttpResponse<String> unsupported =
        post(ping(7), "Mcp-Session-Id", session, "MCP-Protocol-Version", "1999-01-01");
    HttpResponse<String> supported =
        post(ping(8), "Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");

    assertThat(unsupported.statusCode()).isEqualTo(400);
    assertThat(error(unsupported).path("message").asString()).contains("1999-01-01");
    assertThat(supported.statusCode()).isEqualTo(200);
    assertThat(supported.body()).contains("\"result\"");
  }

  @Test
  void sseEvents_haveIdsOfTheirOwn_notTheSessionId() throws Exception {
    String session = server.session();
    List<String> ids = new ArrayList<>();
    for (int id = 20; id < 23; id++) {
      HttpResponse<String> response = post(ping(id), "Mcp-Session-Id", session);
      response.body().lines().filter(l -> l.startsWith("id:")).forEach(ids::add);
    }

    assertThat(ids).hasSize(3).doesNotHaveDuplicates();
    assertThat(ids).noneMatch(line -> line.contains(session));
  }

  @Test
  void paginationCursor_onEveryList_isInvalidParams() throws Exception {
    String session = server.session();
    for (String list : List.of("tools/list", "prompts/list", "resources/list")) {
      HttpResponse<String> response =
          post(
              "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\""
                  + list
                  + "\",\"params\":{\"cursor\":\"bogus\"}}",
              "Mcp-Session-Id",
              session);

      assertThat(error(response).path("code").asInt()).as(list).isEqualTo(-32602);
      assertThat(error(response).path("message").asString()).as(list).contains("cursor");
    }
  }

  @Test
  void unknownTool_isInvalidParamsNamingItWithCodeUnknownTool() throws Exception {
    HttpResponse<String> response =
        post(JsonRpcLines.toolsCall(10, "no_such_tool", "{}"), "Mcp-Session-Id", server.session());

    JsonNode error = error(response);
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("message").asString())
        .contains("no_such_tool")
        .contains("current_time")
        .doesNotContain("invalid_tool_name");
    assertThat(error.path("data").path("code").asString()).isEqualTo("UNKNOWN_TOOL");
  }

  @Test
  void answerForARequestTheSessionNeverGot_is400NotServerError() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":\"elicitation-of-another-session\",\"result\":{}}",
            "Mcp-Session-Id",
            server.session());

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(error(response).path("code").asInt()).isEqualTo(-32600);
    assertThat(error(response).path("message").asString())
        .contains("elicitation-of-another-session");
    assertThat(response.body()).doesNotContain("Exception").doesNotContain("unknown id");
  }

  @Test
  void idleSessions_expire() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_MCP_HTTP_SESSION_IDLE_SECONDS", "1");
    try (CortexHttp short_ = CortexHttp.start(env, "--bundles", "core")) {
      String session = short_.session();
      assertThat(short_.post(ping(2), "Mcp-Session-Id", session).statusCode()).isEqualTo(200);

      // Every request of a session keeps it alive: only time without one lets it expire.
      Thread.sleep(1500);
      HttpResponse<String> late = short_.post(ping(3), "Mcp-Session-Id", session);

      assertThat(late.statusCode()).isEqualTo(404);
      assertThat(error(late).path("message").asString()).contains("expired");
      assertThat(short_.session()).as("a new session can start").isNotEqualTo(session);
    }
  }

  @Test
  void sessionsPastTheCap_closeTheLeastRecentlyUsed() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_MCP_HTTP_MAX_SESSIONS", "2");
    try (CortexHttp capped = CortexHttp.start(env, "--bundles", "core")) {
      String first = capped.session();
      String second = capped.session();
      String third = capped.session();

      assertThat(capped.post(ping(2), "Mcp-Session-Id", first).statusCode()).isEqualTo(404);
      assertThat(capped.post(ping(3), "Mcp-Session-Id", second).statusCode()).isEqualTo(200);
      assertThat(capped.post(ping(4), "Mcp-Session-Id", third).statusCode()).isEqualTo(200);
    }
  }

  static JsonNode body(HttpResponse<String> response) {
    String text = response.body().strip();
    if (text.startsWith("id:") || text.startsWith("event:") || text.startsWith("data:")) {
      text =
          text.lines()
              .filter(l -> l.startsWith("data:"))
              .reduce((a, b) -> b)
              .orElseThrow()
              .substring(5)
              .strip();
    }
    return RawStdio.JSON.readTree(text);
  }

  static JsonNode error(HttpResponse<String> response) {
    return body(response).path("error");
  }

  @Test
  void unknownSessionId_is404() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "Mcp-Session-Id",
            "no-such-session");

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).startsWith("{\"jsonrpc\":\"2.0\"").contains("\"error\"");
    assertThat(response.body())
        .doesNotContain("stackTrace")
        .doesNotContain("java.")
        .doesNotContain("Exception");
  }

  @Test
  void unknownSessionId_onGet_is404WithJsonRpcBody() throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.url))
                .header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", "no-such-session")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body())
        .contains("\"error\"")
        .doesNotContain("<html")
        .doesNotContain("Jetty");
  }

  @Test
  void nonLoopbackBindWithoutToken_stopsStartup() throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(CortexProcess.env(home), "mcp", "--http", "0", "--bind", "0.0.0.0");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("CORTEX_MCP_HTTP_TOKEN");
  }

  @Test
  void configuredToken_isRequired() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_MCP_HTTP_TOKEN", "s3cret-token");
    try (CortexHttp guarded = CortexHttp.start(env, "--bundles", "core")) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(guarded.url))
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
      HttpResponse<String> without =
          HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> wrong =
          HTTP.send(
              request.header("Authorization", "Bearer nope").build(),
              HttpResponse.BodyHandlers.ofString());
      McpSyncClient client =
          McpClients.connect(
              HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + guarded.port)
                  .endpoint("/mcp")
                  .jsonMapper(McpClients.MAPPER)
                  .requestBuilder(
                      HttpRequest.newBuilder().header("Authorization", "Bearer s3cret-token"))
                  .build());
      try {
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(McpClients.call(client, "current_time", Map.of("timezone", "UTC")).isError())
            .isFalse();
      } finally {
        client.closeGracefully();
      }
    }
  }

  /** Sends a request with an arbitrary Host header over a plain socket; returns the status line. */
  private static String rawStatusLine(String host, String body) throws Exception {
    byte[] payload = body.getBytes(StandardCharsets.UTF_8);
    try (Socket socket = new Socket("127.0.0.1", server.port)) {
      OutputStream out = socket.getOutputStream();
      String head =
          "POST /mcp HTTP/1.1\r\nHost: "
              + host
              + "\r\nContent-Type: application/json\r\n"
              + "Accept: application/json, text/event-stream\r\nContent-Length: "
              + payload.length
              + "\r\nConnection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(payload);
      out.flush();
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      int c;
      while ((c = in.read()) != -1 && c != '\n') {
        line.append((char) c);
      }
      return line.toString();
    }
  }
}
