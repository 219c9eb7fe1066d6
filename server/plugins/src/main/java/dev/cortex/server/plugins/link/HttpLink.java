package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * A remote plugin server over MCP's streamable HTTP: each message is a POST whose answer is JSON or
 * an event stream; the session id the server gives at {@code initialize} goes on every later
 * request; once initialised, a GET stream carries what the server sends of its own accord (a server
 * that offers none answers 405, which is fine). Redirects are refused.
 */
final class HttpLink implements PluginLink {
  private static final Duration INITIALIZE_WAIT = Duration.ofSeconds(60);

  private final PluginServer.Remote server;
  private final HttpClient http = Remote.client();
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "plugin-http");
            t.setDaemon(true);
            return t;
          });
  private final CountDownLatch initialized = new CountDownLatch(1);
  private final AtomicBoolean ended = new AtomicBoolean();
  private volatile Consumer<JsonNode> inbound;
  private volatile Consumer<String> onEnd;
  private volatile String sessionId;
  private volatile String protocolVersion;
  private volatile InputStream listening;

  HttpLink(PluginServer.Remote server) {
    this.server = server;
  }

  @Override
  public void start(Consumer<JsonNode> inbound, Consumer<String> ended) {
    this.inbound = inbound;
    this.onEnd = ended;
  }

  @Override
  public void send(JsonNode message) throws IOException {
    if (ended.get()) {
      throw new LinkFailure(Remote.name(server) + " is no longer connected");
    }
    if (JsonRpc.method(message).equals("initialize")) {
      try {
        post(message, true);
      } finally {
        initialized.countDown();
      }
      return;
    }
    try {
      if (!initialized.await(INITIALIZE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new LinkFailure(Remote.name(server) + " was not initialised");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LinkFailure("interrupted");
    }
    if (!JsonRpc.isRequest(message)) {
      // Notifications and answers go in order, at once: the server answers them with 202.
      post(message, false);
      if (JsonRpc.method(message).equals("notifications/initialized")) {
        pool.execute(this::listen);
      }
      return;
    }
    pool.execute(
        () -> {
          try {
            post(message, false);
          } catch (LinkFailure e) {
            deliver(JsonRpc.error(message.get("id"), JsonRpc.SERVER_UNAVAILABLE, e.getMessage()));
          }
        });
  }

  private HttpRequest.Builder request() {
    HttpRequest.Builder request = Remote.request(server, server.url());
    if (sessionId != null) {
      request.header("Mcp-Session-Id", sessionId);
    }
    if (protocolVersion != null) {
      request.header("MCP-Protocol-Version", protocolVersion);
    }
    return request;
  }

  private void post(JsonNode message, boolean initialize) throws LinkFailure {
    HttpRequest request =
        request()
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(message)))
            .build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw new LinkFailure(Remote.name(server) + " cannot be reached");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LinkFailure("interrupted");
    }
    try {
      Remote.refuseRedirect(server, response);
    } catch (LinkFailure e) {
      end(e.getMessage());
      throw e;
    }
    if (initialize) {
      response.headers().firstValue("mcp-session-id").ifPresent(id -> sessionId = id);
    }
    int status = response.statusCode();
    if (status == 202 || status == 204) {
      Remote.closeQuietly(response);
      return;
    }
    if (status >= 400) {
      Remote.closeQuietly(response);
      if (status == 404 && sessionId != null) {
        end(Remote.name(server) + " ended its session (HTTP 404)");
      }
      throw new LinkFailure(Remote.name(server) + " answered HTTP " + status);
    }
    read(response);
  }

  private void read(HttpResponse<InputStream> response) throws LinkFailure {
    try (InputStream body = response.body()) {
      if (Remote.contentType(response).startsWith("text/event-stream")) {
        Remote.events(
            body,
            (event, data) -> {
              if (event.equals("message") && !data.isBlank()) {
                deliverText(data);
              }
            });
      } else {
        byte[] bytes = body.readAllBytes();
        if (bytes.length > 0) {
          deliverText(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        }
      }
    } catch (IOException e) {
      if (!ended.get()) {
        throw new LinkFailure(Remote.name(server) + " broke off its answer");
      }
    }
  }

  /** The GET stream of what the server sends unasked; quietly none when it offers none. */
  private void listen() {
    HttpRequest request = request().header("Accept", "text/event-stream").GET().build();
    try {
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      Remote.refuseRedirect(server, response);
      if (response.statusCode() != 200
          || !Remote.contentType(response).startsWith("text/event-stream")) {
        Remote.closeQuietly(response);
        return;
      }
      listening = response.body();
      read(response);
    } catch (LinkFailure e) {
      end(e.getMessage());
    } catch (IOException e) {
      // no stream: requests still work
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void deliverText(String text) {
    JsonNode node;
    try {
      node = Json.mapper().readTree(text);
    } catch (RuntimeException e) {
      return;
    }
    if (node.isArray()) {
      node.forEach(this::deliver);
    } else {
      deliver(node);
    }
  }

  private synchronized void deliver(JsonNode message) {
    if (protocolVersion == null && JsonRpc.isResponse(message)) {
      String version = message.path("result").path("protocolVersion").asString(null);
      if (version != null && !version.isBlank()) {
        protocolVersion = version;
      }
    }
    inbound.accept(message);
  }

  private void end(String reason) {
    if (ended.compareAndSet(false, true) && onEnd != null) {
      onEnd.accept(reason);
    }
  }

  @Override
  public void close() {
    ended.set(true);
    InputStream stream = listening;
    if (stream != null) {
      try {
        stream.close();
      } catch (IOException e) {
        // already closed
      }
    }
    if (sessionId != null) {
      try {
        http.send(
            request().timeout(Duration.ofSeconds(2)).DELETE().build(),
            HttpResponse.BodyHandlers.discarding());
      } catch (IOException e) {
        // best effort: the server ends idle sessions itself
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    pool.shutdownNow();
  }
}
