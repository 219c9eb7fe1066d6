package dev.cortex.server.plugins.link;

import dev.cortex.base.Json;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
 * that offers none answers 405, which is fine). Redirects are refused. A request whose POST ends
 * without its answer is answered with an error, so that no client waits forever; every step but a
 * request's own work (a tool call may take long) has {@link Remote#ANSWER_TIMEOUT}.
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
        exchange(message, true, Remote.ANSWER_TIMEOUT);
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
      post(message, false, Remote.ANSWER_TIMEOUT);
      if (JsonRpc.method(message).equals("notifications/initialized")) {
        pool.execute(this::listen);
      }
      return;
    }
    pool.execute(
        () -> {
          try {
            exchange(message, false, null);
          } catch (LinkFailure e) {
            deliver(JsonRpc.error(message.get("id"), JsonRpc.SERVER_UNAVAILABLE, e.getMessage()));
          }
        });
  }

  /** A request and its answer; one the POST ended without is a {@link LinkFailure}. */
  private void exchange(JsonNode request, boolean initialize, Duration timeout) throws LinkFailure {
    if (!post(request, initialize, timeout)) {
      throw new LinkFailure(
          Remote.name(server)
              + " ended its answer without the response to "
              + JsonRpc.method(request));
    }
  }

  private HttpRequest.Builder request() throws LinkFailure {
    HttpRequest.Builder request = Remote.request(server, server.url());
    if (sessionId != null) {
      request.header("Mcp-Session-Id", sessionId);
    }
    Remote.header(request, "MCP-Protocol-Version", protocolVersion);
    return request;
  }

  /**
   * Posts {@code message}: for a request, whether its answer came (it has been delivered); for
   * anything else, true.
   */
  private boolean post(JsonNode message, boolean initialize, Duration timeout) throws LinkFailure {
    HttpRequest.Builder builder =
        request()
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(message)));
    if (timeout != null) {
      builder.timeout(timeout);
    }
    HttpResponse<InputStream> response = Remote.send(http, builder.build(), server);
    try {
      Remote.refuseRedirect(server, response);
    } catch (LinkFailure e) {
      end(e.getMessage());
      throw e;
    }
    if (initialize) {
      response
          .headers()
          .firstValue("mcp-session-id")
          .filter(id -> id.matches("[\\x21-\\x7e]{1,256}"))
          .ifPresent(id -> sessionId = id);
    }
    int status = response.statusCode();
    if (status == 202 || status == 204) {
      Remote.closeQuietly(response);
      return !JsonRpc.isRequest(message);
    }
    if (status >= 400) {
      Remote.closeQuietly(response);
      if (status == 404 && sessionId != null) {
        end(Remote.name(server) + " ended its session (HTTP 404)");
      }
      throw new LinkFailure(Remote.name(server) + " answered HTTP " + status);
    }
    return read(response, JsonRpc.isRequest(message) ? message.get("id") : null);
  }

  /**
   * Delivers what an answer holds; with {@code awaited}, stops once the response of that id has
   * come and says whether it did.
   */
  private boolean read(HttpResponse<InputStream> response, JsonNode awaited) throws LinkFailure {
    boolean[] answered = {awaited == null};
    try (InputStream body = response.body()) {
      if (Remote.contentType(response).startsWith("text/event-stream")) {
        Remote.events(
            body,
            (event, data) -> {
              if (event.equals("message") && !data.isBlank()) {
                answered[0] |= deliverText(data, awaited);
              }
              return !(awaited != null && answered[0]);
            });
      } else {
        byte[] bytes = Remote.readCapped(body);
        if (bytes.length > 0) {
          answered[0] |= deliverText(new String(bytes, StandardCharsets.UTF_8), awaited);
        }
      }
    } catch (IOException e) {
      if (!ended.get() && !answered[0]) {
        throw new LinkFailure(Remote.name(server) + " broke off its answer");
      }
    }
    return answered[0];
  }

  /** The GET stream of what the server sends unasked; quietly none when it offers none. */
  private void listen() {
    try {
      HttpRequest request =
          request()
              .header("Accept", "text/event-stream")
              .timeout(Remote.ANSWER_TIMEOUT)
              .GET()
              .build();
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      Remote.refuseRedirect(server, response);
      if (response.statusCode() != 200
          || !Remote.contentType(response).startsWith("text/event-stream")) {
        Remote.closeQuietly(response);
        return;
      }
      listening = response.body();
      read(response, null);
    } catch (LinkFailure e) {
      if (e.getMessage().contains("redirect")) {
        end(e.getMessage());
      }
    } catch (IOException e) {
      // no stream: requests still work
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Delivers the message(s) of {@code text}: whether one was the response of {@code awaited}. */
  private boolean deliverText(String text, JsonNode awaited) {
    JsonNode node;
    try {
      node = Json.mapper().readTree(text);
    } catch (RuntimeException e) {
      return false;
    }
    boolean answered = false;
    for (JsonNode message : node.isArray() ? node : java.util.List.of(node)) {
      deliver(message);
      answered |=
          awaited != null
              && JsonRpc.isResponse(message)
              && JsonRpc.sameId(awaited, message.get("id"));
    }
    return answered;
  }

  private synchronized void deliver(JsonNode message) {
    if (protocolVersion == null && JsonRpc.isResponse(message)) {
      String version = message.path("result").path("protocolVersion").asString(null);
      if (version != null && version.matches("[0-9A-Za-z.-]{1,32}")) {
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
