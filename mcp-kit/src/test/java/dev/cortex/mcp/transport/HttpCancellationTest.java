package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code notifications/cancelled} over streamable HTTP, on Jetty and the SDK servlet in-process.
 */
class HttpCancellationTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path home;

  final SlowTool tool = new SlowTool();
  HttpServe server;
  String session;

  @BeforeEach
  void start() throws Exception {
    server =
        HttpServe.start(
            new HttpServe.Options("127.0.0.1", 0, null, List.of(), List.of(), 1 << 20),
            null,
            (provider, hooks) ->
                tool.serve(io.modelcontextprotocol.server.McpServer.async(provider), home, hooks));
    HttpResponse<String> initialized = post(SlowTool.INITIALIZE, null).join();
    session = initialized.headers().firstValue(HttpCancellation.SESSION_HEADER).orElseThrow();
    assertThat(post(SlowTool.INITIALIZED, session).join().statusCode()).isEqualTo(202);
  }

  @AfterEach
  void stop() {
    tool.release.countDown();
    server.stop();
  }

  CompletableFuture<HttpResponse<String>> post(String body, String sessionId) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.endpoint()))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (sessionId != null) {
      request.header(HttpCancellation.SESSION_HEADER, sessionId);
    }
    return HTTP.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void cancelledCall_streamEndsWithoutResponseOrLaterProgress_butItsWorkFinishes()
      throws Exception {
    CompletableFuture<HttpResponse<String>> call = post(SlowTool.call(2, "p2"), session);
    SlowTool.await(tool.started);

    HttpResponse<String> cancel = post(SlowTool.cancel(2), session).join();
    HttpResponse<String> pong =
        post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}", session).join();
    tool.release.countDown();
    HttpResponse<String> stream = call.get(60, TimeUnit.SECONDS);

    assertThat(cancel.statusCode()).isEqualTo(202);
    assertThat(pong.body()).contains("\"id\":3").contains("\"result\"");
    assertThat(tool.finished.getCount()).as("the cancelled call ran to its end").isZero();
    assertThat(tool.cancelled.getCount()).as("the call was told it was cancelled").isZero();
    assertThat(stream.statusCode()).isEqualTo(200);
    assertThat(stream.body()).contains("\"progressToken\":\"p2\"").contains("\"started\"");
    assertThat(stream.body()).doesNotContain("\"done\"").doesNotContain("\"result\"");
  }

  @Test
  void cancelOfAnotherId_orFromAnUnknownSession_leavesTheCallAnswered() throws Exception {
    CompletableFuture<HttpResponse<String>> call = post(SlowTool.call(2, "p2"), session);
    SlowTool.await(tool.started);

    HttpResponse<String> unknown = post(SlowTool.cancel(99), session).join();
    HttpResponse<String> otherSession = post(SlowTool.cancel(2), "no-such-session").join();
    tool.release.countDown();
    HttpResponse<String> stream = call.get(60, TimeUnit.SECONDS);

    assertThat(unknown.statusCode()).isEqualTo(202);
    assertThat(otherSession.statusCode()).as("an unknown session").isEqualTo(404);
    assertThat(stream.body()).contains("\"id\":2").contains("\"result\"").contains("\"done\"");
    assertThat(tool.cancelled.getCount()).as("no cancel reached the call").isOne();
  }
}
