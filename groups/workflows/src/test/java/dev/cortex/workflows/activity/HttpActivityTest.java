package dev.cortex.workflows.activity;

import static dev.cortex.workflows.activity.ActivityTestInputs.environment;
import static dev.cortex.workflows.activity.ActivityTestInputs.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cortex.base.Json;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpActivityTest {
  private final HttpActivity http = new HttpActivity();
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch slowStarted = new CountDownLatch(1);
  private ExecutorService executor;
  private HttpServer server;
  private String base;

  @TempDir Path home;

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    executor = Executors.newCachedThreadPool();
    server.setExecutor(executor);
    server.createContext("/json", this::json);
    server.createContext("/text", e -> respond(e, 200, "text/plain; charset=utf-8", "hello"));
    server.createContext("/broken", e -> respond(e, 200, "application/json", "{not json"));
    server.createContext("/problem", e -> respond(e, 422, "application/problem+json", "{\"e\":1}"));
    server.createContext("/echo", this::echo);
    server.createContext("/status", this::status);
    server.createContext("/big", e -> respond(e, 200, "text/plain", "x".repeat(5000)));
    server.createContext("/slow", this::slow);
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stopServer() {
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  private void json(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().add("X-Multi", "one");
    exchange.getResponseHeaders().add("X-Multi", "two");
    respond(exchange, 200, "application/json", "{\"a\":1,\"list\":[true,null]}");
  }

  private void echo(HttpExchange exchange) throws IOException {
    Map<String, Object> seen = new LinkedHashMap<>();
    seen.put("method", exchange.getRequestMethod());
    seen.put("content_type", exchange.getRequestHeaders().getFirst("Content-Type"));
    seen.put("token", exchange.getRequestHeaders().getFirst("X-Token"));
    seen.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    respond(exchange, 200, "application/json", Json.write(seen));
  }

  private void status(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    int code = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
    respond(exchange, code, "text/plain", "status " + code);
  }

  private void slow(HttpExchange exchange) throws IOException {
    slowStarted.countDown();
    try {
      release.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    respond(exchange, 200, "text/plain", "late");
  }

  private static void respond(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!head) {
        out.write(bytes);
      }
    }
  }

  private ActivityInput input(Map<String, Object> with) {
    return input(with, null);
  }

  private ActivityInput input(Map<String, Object> with, Duration timeout) {
    return ActivityTestInputs.input(StepKind.HTTP, Json.write(with), timeout, environment(home));
  }

  @Test
  void run_jsonResponse_parsesBodyAndLowercasesJoinedHeaders() throws Exception {
    ActivityResult result = http.run(input(Map.of("url", base + "/json")));

    assertThat(result.output().get("status").asInt()).isEqualTo(200);
    assertThat(result.output().get("body").get("a").asInt()).isEqualTo(1);
    assertThat(result.output().get("headers").get("content-type").asString())
        .isEqualTo("application/json");
    assertThat(result.output().get("headers").get("x-multi").asString()).isEqualTo("one, two");
    assertThat(result.summary()).isEqualTo("HTTP 200, 26 B");
  }

  @Test
  void run_textResponse_bodyIsText() throws Exception {
    ActivityResult result = http.run(input(Map.of("url", base + "/text")));

    assertThat(result.output().get("body").asString()).isEqualTo("hello");
  }

  @Test
  void run_jsonTypedButNotJson_bodyIsText() throws Exception {
    ActivityResult result = http.run(input(Map.of("url", base + "/broken")));

    assertThat(result.output().get("body").asString()).isEqualTo("{not json");
  }

  @Test
  void run_objectBody_sentAsJsonWithContentType() throws Exception {
    ActivityResult result =
        http.run(
            input(
                Map.of(
                    "url",
                    base + "/echo",
                    "method",
                    "POST",
                    "headers",
                    Map.of("X-Token", "t1"),
                    "body",
                    Map.of("n", 1))));

    assertThat(result.output().get("body").get("method").asString()).isEqualTo("POST");
    assertThat(result.output().get("body").get("content_type").asString())
        .isEqualTo("application/json");
    assertThat(result.output().get("body").get("token").asString()).isEqualTo("t1");
    assertThat(result.output().get("body").get("body").asString()).isEqualTo("{\"n\":1}");
  }

  @Test
  void run_stringBody_sentAsItIsKeepingGivenContentType() throws Exception {
    ActivityResult result =
        http.run(
            input(
                Map.of(
                    "url",
                    base + "/echo",
                    "method",
                    "PUT",
                    "headers",
                    Map.of("Content-Type", "text/csv"),
                    "body",
                    "a,b\n1,2")));

    assertThat(result.output().get("body").get("content_type").asString()).isEqualTo("text/csv");
    assertThat(result.output().get("body").get("body").asString()).isEqualTo("a,b\n1,2");
  }

  @Test
  void run_head_hasEmptyBody() throws Exception {
    ActivityResult result = http.run(input(Map.of("url", base + "/text", "method", "HEAD")));

    assertThat(result.output().get("status").asInt()).isEqualTo(200);
    assertThat(result.output().get("body").asString()).isEmpty();
    assertThat(result.summary()).isEqualTo("HTTP 200, 0 B");
  }

  @Test
  void run_clientError_failsHttpStatusNotRetryableWithOutput() {
    ActivityFailure failure = failure(http, input(Map.of("url", base + "/status/404")));

    assertThat(failure.kind()).isEqualTo("http_status");
    assertThat(failure.getMessage()).isEqualTo("HTTP 404 from 127.0.0.1: status 404");
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.output().get("status").asInt()).isEqualTo(404);
    assertThat(failure.output().get("body").asString()).isEqualTo("status 404");
  }

  @Test
  void run_problemJson_parsedAndShownInMessage() {
    ActivityFailure failure = failure(http, input(Map.of("url", base + "/problem")));

    assertThat(failure.getMessage()).isEqualTo("HTTP 422 from 127.0.0.1: {\"e\":1}");
    assertThat(failure.output().get("body").get("e").asInt()).isEqualTo(1);
  }

  @Test
  void run_retryableStatuses_are408And429And5xx() {
    for (int code : List.of(408, 429, 500, 503)) {
      assertThat(failure(http, input(Map.of("url", base + "/status/" + code))).retryable())
          .as("status %d", code)
          .isTrue();
    }
  }

  @Test
  void run_failOnStatusFalse_returnsTheResponse() throws Exception {
    ActivityResult result =
        http.run(input(Map.of("url", base + "/status/500", "fail_on_status", false)));

    assertThat(result.output().get("status").asInt()).isEqualTo(500);
    assertThat(result.summary()).isEqualTo("HTTP 500, 10 B");
  }

  @Test
  void run_bodyPastLimit_keptUpToLimitAndMarked() throws Exception {
    HttpActivity capped = new HttpActivity(HttpClient::newHttpClient, 1000);

    ActivityResult result = capped.run(input(Map.of("url", base + "/big")));

    assertThat(result.output().get("body").asString()).hasSize(1000);
    assertThat(result.output().get("body_truncated").asBoolean()).isTrue();
    assertThat(result.summary()).isEqualTo("HTTP 200, 4.9 KB");
  }

  @Test
  void run_connectionRefused_failsNetworkRetryable() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    ActivityFailure failure = failure(http, input(Map.of("url", "http://127.0.0.1:" + port)));

    assertThat(failure.kind()).isEqualTo("network");
    assertThat(failure.retryable()).isTrue();
    assertThat(failure.getMessage()).contains("127.0.0.1:" + port).doesNotContain("java.");
  }

  @Test
  void run_slowerThanStepTimeout_failsTimeout() {
    ActivityFailure failure =
        failure(http, input(Map.of("url", base + "/slow"), Duration.ofMillis(300)));

    assertThat(failure.kind()).isEqualTo("timeout");
    assertThat(failure.retryable()).isTrue();
  }

  @Test
  void run_notHttp_failsInvalidInput() {
    ActivityFailure failure = failure(http, input(Map.of("url", "ftp://127.0.0.1/x")));

    assertThat(failure.kind()).isEqualTo("invalid_input");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_interrupted_abortsAndRethrows() throws Exception {
    Throwable thrown =
        ActivityTestInputs.interrupted(
            http, input(Map.of("url", base + "/slow")), () -> slowStarted.getCount() == 0);

    assertThat(thrown).isInstanceOf(InterruptedException.class);
  }
}
