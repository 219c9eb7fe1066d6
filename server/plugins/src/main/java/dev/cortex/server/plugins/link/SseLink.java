package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * A remote plugin server over MCP's older SSE transport: a GET event stream whose first event names
 * the endpoint messages are posted to, and which carries the server's messages. The endpoint must
 * be on the stream's own origin (else the server's headers would go elsewhere); redirects are
 * refused.
 */
final class SseLink implements PluginLink {
  private static final Duration ENDPOINT_WAIT = Duration.ofSeconds(30);

  private final PluginServer.Remote server;
  private final HttpClient http = Remote.client();
  private final CountDownLatch endpointKnown = new CountDownLatch(1);
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile URI endpoint;
  private volatile InputStream stream;
  private volatile Consumer<String> onEnd;
  private volatile Consumer<JsonNode> inbound;
  private final java.util.concurrent.ExecutorService pool =
      java.util.concurrent.Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "plugin-sse-post");
            t.setDaemon(true);
            return t;
          });

  SseLink(PluginServer.Remote server) {
    this.server = server;
  }

  @Override
  public void start(Consumer<JsonNode> inbound, Consumer<String> ended) throws IOException {
    this.onEnd = ended;
    Consumer<JsonNode> one =
        message -> {
          synchronized (this) {
            inbound.accept(message);
          }
        };
    this.inbound = one;
    HttpRequest request =
        Remote.request(server, server.url())
            .header("Accept", "text/event-stream")
            .timeout(Remote.ANSWER_TIMEOUT)
            .GET()
            .build();
    HttpResponse<InputStream> response = Remote.send(http, request, server);
    Remote.refuseRedirect(server, response);
    if (response.statusCode() != 200
        || !Remote.contentType(response).startsWith("text/event-stream")) {
      Remote.closeQuietly(response);
      throw new LinkFailure(
          Remote.name(server)
              + " answered HTTP "
              + response.statusCode()
              + " without an event stream");
    }
    stream = response.body();
    Thread reader =
        new Thread(
            () -> {
              String reason = Remote.name(server) + " closed its event stream";
              try {
                Remote.events(
                    response.body(),
                    (event, data) -> {
                      if (event.equals("endpoint")) {
                        endpoint(data.trim());
                      } else if (event.equals("message") && !data.isBlank()) {
                        JsonNode message;
                        try {
                          message = Json.mapper().readTree(data);
                        } catch (RuntimeException e) {
                          return true;
                        }
                        one.accept(message);
                      }
                      return true;
                    });
              } catch (IOException e) {
                reason = Remote.name(server) + " broke off its event stream";
              }
              end(reason);
            },
            "plugin-sse");
    reader.setDaemon(true);
    reader.start();
  }

  private void endpoint(String value) {
    if (endpoint != null) {
      return;
    }
    URI resolved;
    try {
      resolved = server.url().resolve(value);
    } catch (IllegalArgumentException e) {
      end(Remote.name(server) + " named an endpoint that is not a URL");
      return;
    }
    if (!Objects.equals(resolved.getScheme(), server.url().getScheme())
        || !Objects.equals(resolved.getHost(), server.url().getHost())
        || resolved.getPort() != server.url().getPort()
        || resolved.getRawUserInfo() != null) {
      end(
          Remote.name(server)
              + " named an endpoint on another origin; its headers are only sent to its own");
      closeStream();
      return;
    }
    endpoint = resolved;
    endpointKnown.countDown();
  }

  @Override
  public void send(JsonNode message) throws IOException {
    if (!JsonRpc.isRequest(message)) {
      post(message, Remote.ANSWER_TIMEOUT);
      return;
    }
    // A request's answer comes on the stream; its POST may last as long as the server works on it.
    pool.execute(
        () -> {
          try {
            post(message, null);
          } catch (IOException e) {
            inbound.accept(
                JsonRpc.error(message.get("id"), JsonRpc.SERVER_UNAVAILABLE, e.getMessage()));
          }
        });
  }

  private void post(JsonNode message, Duration timeout) throws IOException {
    try {
      if (!endpointKnown.await(ENDPOINT_WAIT.toMillis(), TimeUnit.MILLISECONDS) || ended.get()) {
        throw new LinkFailure(Remote.name(server) + " named no endpoint to post messages to");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LinkFailure("interrupted");
    }
    HttpRequest.Builder builder =
        Remote.request(server, endpoint)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(message)));
    if (timeout != null) {
      builder.timeout(timeout);
    }
    HttpRequest request = builder.build();
    HttpResponse<InputStream> response = Remote.send(http, request, server);
    Remote.closeQuietly(response);
    try {
      Remote.refuseRedirect(server, response);
    } catch (LinkFailure e) {
      end(e.getMessage());
      throw e;
    }
    if (response.statusCode() >= 400) {
      throw new LinkFailure(Remote.name(server) + " answered HTTP " + response.statusCode());
    }
  }

  private void end(String reason) {
    if (ended.compareAndSet(false, true)) {
      endpointKnown.countDown();
      if (onEnd != null) {
        onEnd.accept(reason);
      }
    }
  }

  private void closeStream() {
    InputStream in = stream;
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }

  @Override
  public void close() {
    ended.set(true);
    endpointKnown.countDown();
    closeStream();
    pool.shutdownNow();
  }
}
