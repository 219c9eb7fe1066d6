package dev.cortex.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One Jetty server, a connector per port, routes per connector, on real loopback sockets. */
class HttpHostTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  HttpHost host;

  @AfterEach
  void stop() {
    if (host != null) {
      // Idle keep-alive connections get a second to close (Jetty's shutdown idle timeout).
      host.stop(Duration.ofSeconds(5));
    }
  }

  static Handler answering(String text) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(
          org.eclipse.jetty.server.Request request,
          org.eclipse.jetty.server.Response response,
          org.eclipse.jetty.util.Callback callback) {
        JsonBodies.send(response, callback, 200, Map.of("route", text));
        return true;
      }
    };
  }

  HttpResponse<String> get(String connector, String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + host.port(connector) + path);
    return HTTP.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void route_isReachedOnlyThroughItsOwnConnector() throws Exception {
    host =
        HttpHost.builder("test-http")
            .connector("inside", "127.0.0.1", 0, null)
            .connector("outside", "127.0.0.1", 0, null)
            .route("inside", "/private/*", answering("private"))
            .route("outside", "/public", answering("public"))
            .start();

    assertThat(get("inside", "/private/x").body()).contains("\"private\"");
    assertThat(get("outside", "/public").body()).contains("\"public\"");
    HttpResponse<String> crossed = get("outside", "/private/x");
    assertThat(crossed.statusCode()).isEqualTo(404);
    assertThat(crossed.body()).contains("\"NOT_FOUND\"");
  }

  @Test
  void route_everyPath_servesTheWholeConnector() throws Exception {
    host =
        HttpHost.builder("test-http")
            .connector("only", "127.0.0.1", 0, null)
            .route("only", "/*", answering("all"))
            .start();

    assertThat(get("only", "/").body()).contains("\"all\"");
    assertThat(get("only", "/deep/er").body()).contains("\"all\"");
  }

  @Test
  void route_onUndeclaredConnector_isRefused() {
    HttpHost.Builder builder = HttpHost.builder("test-http");

    assertThatThrownBy(() -> builder.route("missing", "/x", answering("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing");
  }

  @Test
  void connector_declaredTwice_isRefused() {
    HttpHost.Builder builder = HttpHost.builder("test-http").connector("a", "127.0.0.1", 0, null);

    assertThatThrownBy(() -> builder.connector("a", "127.0.0.1", 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("declared twice: a");
  }

  @Test
  void start_portInUse_namesTheAddressAndConnector() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      HttpHost.Builder builder =
          HttpHost.builder("test-http").connector("busy", "127.0.0.1", taken.getLocalPort(), null);

      assertThatThrownBy(builder::start)
          .isInstanceOf(StartupException.class)
          .hasMessageStartingWith("Cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (busy)");
    }
  }

  @Test
  void port_ofUnknownConnector_isRefused() {
    host = HttpHost.builder("test-http").connector("only", "127.0.0.1", 0, null).start();

    assertThat(host.port("only")).isPositive();
    assertThatThrownBy(() -> host.port("other"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("other");
  }

  @Test
  void ownThreads_serveTheirConnector_whileEveryThreadOfTheSharedPoolWaits() throws Exception {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger waiting =
        new java.util.concurrent.atomic.AtomicInteger();
    Handler blocking =
        new Handler.Abstract() {
          @Override
          public boolean handle(
              org.eclipse.jetty.server.Request request,
              org.eclipse.jetty.server.Response response,
              org.eclipse.jetty.util.Callback callback)
              throws InterruptedException {
            waiting.incrementAndGet();
            release.await();
            JsonBodies.send(response, callback, 200, Map.of("route", "slow"));
            return true;
          }
        };
    host =
        HttpHost.builder("test-http")
            .connector("slow", "127.0.0.1", 0, null)
            .connector("quick", "127.0.0.1", 0, null)
            .ownThreads("quick", 4)
            .route("slow", "/wait", blocking)
            .route("quick", "/now", answering("quick"))
            .start();
    HttpClient many = HttpClient.newHttpClient();
    java.util.List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> held =
        new java.util.ArrayList<>();
    URI slow = URI.create("http://127.0.0.1:" + host.port("slow") + "/wait");
    try {
      // More requests that wait than the shared pool has threads: it has none left.
      for (int i = 0; i < 230; i++) {
        held.add(
            many.sendAsync(
                HttpRequest.newBuilder(slow).build(), HttpResponse.BodyHandlers.ofString()));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (waiting.get() < 150 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(waiting.get()).isGreaterThanOrEqualTo(150);

      HttpResponse<String> quick =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port("quick") + "/now"))
                  .timeout(Duration.ofSeconds(20))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(quick.body()).contains("\"quick\"");
    } finally {
      release.countDown();
    }
    for (var answer : held) {
      assertThat(answer.get(60, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void ownThreads_ofUndeclaredConnectorOrTooFew_areRefused() {
    HttpHost.Builder builder = HttpHost.builder("test-http").connector("a", "127.0.0.1", 0, null);

    assertThatThrownBy(() -> builder.ownThreads("b", 8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("b");
    assertThatThrownBy(() -> builder.ownThreads("a", 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
