package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The guards of the streamable HTTP transport, against the built program. */
class HttpProtocolIT {
  static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
          + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

  @TempDir static Path home;
  static HttpServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_MCP_HTTP_MAX_BODY_BYTES", "2000");
    server = HttpServer.start(env, "--bundles", "core");
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

  @Test
  void toolsCallWithMalformedArguments_is400InvalidParams() throws Exception {
    HttpResponse<String> response =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"current_time\",\"arguments\":\"x\"}}",
            "Mcp-Session-Id",
            "any");

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("-32602").doesNotContain("Exception");
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
    try (HttpServer guarded = HttpServer.start(env, "--bundles", "core")) {
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
