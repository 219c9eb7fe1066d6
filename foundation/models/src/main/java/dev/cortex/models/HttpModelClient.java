package dev.cortex.models;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls models over HTTP ({@code java.net.http}): the Anthropic Messages API and OpenAI-compatible
 * chat completions, streamed as server-sent events ({@link #stream}) or as one answer ({@link
 * #complete}). Redirects are never followed (a key must not travel to another host). A connection
 * must open within the connect timeout, and between two pieces of an answer at most the idle
 * timeout passes; a tripped cancellation closes the connection and the call throws {@link
 * InterruptedException}. Each call is one attempt: {@link ModelCalls} retries and falls back.
 */
public final class HttpModelClient implements ModelClient {
  /** How long a connection may take to open, by default. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

  /** How long an answer may go silent (before it starts, or between two events), by default. */
  public static final Duration IDLE_TIMEOUT = Duration.ofMinutes(5);

  private static final Logger log = LoggerFactory.getLogger(HttpModelClient.class);

  private final HttpClient http;
  private final Duration idle;
  private final Clock clock;

  /** A client with the default timeouts. */
  public HttpModelClient() {
    this(CONNECT_TIMEOUT, IDLE_TIMEOUT);
  }

  public HttpModelClient(Duration connectTimeout, Duration idleTimeout) {
    this(
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(positive(connectTimeout, "connectTimeout"))
            .build(),
        idleTimeout,
        Clock.systemUTC());
  }

  /**
   * A client over {@code http}, which must not follow redirects; {@code clock} reads {@code
   * retry-after} dates.
   */
  HttpModelClient(HttpClient http, Duration idleTimeout, Clock clock) {
    if (http.followRedirects() != HttpClient.Redirect.NEVER) {
      throw new IllegalArgumentException("a model client must not follow redirects");
    }
    this.http = http;
    this.idle = positive(idleTimeout, "idleTimeout");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The same client (and connections) with another idle timeout. */
  public HttpModelClient withIdleTimeout(Duration idleTimeout) {
    return new HttpModelClient(http, idleTimeout, clock);
  }

  public Duration idleTimeout() {
    return idle;
  }

  private static Duration positive(Duration duration, String name) {
    Objects.requireNonNull(duration, name);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return duration;
  }

  @Override
  public Reply stream(
      ModelProvider provider,
      String key,
      ChatRequest request,
      StreamListener listener,
      Cancellation cancellation)
      throws ModelFailure, InterruptedException {
    Wire wire = Wire.of(provider.kind());
    try (Exchange exchange = send(wire, provider, key, request, true, cancellation)) {
      String type = exchange.headers().firstValue("content-type").orElse("");
      if (type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
        // a server that answers a stream request with one answer
        Reply reply = whole(wire, exchange, provider, request);
        listener.text(reply.text());
        return reply;
      }
      Wire.Decoder decoder = wire.decoder(provider.name(), key, listener);
      if (dev.cortex.base.EventStream.read(exchange::readLine, decoder, Integer.MAX_VALUE)) {
        exchange.finish();
      }
      Reply reply = decoder.reply(request.model());
      log.debug("{} answered {}: {}", provider.name(), reply.model(), reply.stopReason());
      return reply;
    } catch (ModelFailure failure) {
      log.debug("{} call failed ({}): {}", provider.name(), failure.kind(), failure.getMessage());
      throw failure;
    }
  }

  /**
   * Sends {@code request} to {@code provider} and reads its answer whole, without a stream.
   *
   * @param key the API key, or null for a provider that needs none
   * @throws ModelFailure classified, as {@link #stream} does
   */
  public Reply complete(
      ModelProvider provider, String key, ChatRequest request, Cancellation cancellation)
      throws ModelFailure, InterruptedException {
    Wire wire = Wire.of(provider.kind());
    try (Exchange exchange = send(wire, provider, key, request, false, cancellation)) {
      return whole(wire, exchange, provider, request);
    } catch (ModelFailure failure) {
      log.debug("{} call failed ({}): {}", provider.name(), failure.kind(), failure.getMessage());
      throw failure;
    }
  }

  private Reply whole(Wire wire, Exchange exchange, ModelProvider provider, ChatRequest request)
      throws ModelFailure, InterruptedException {
    String body = exchange.readAll(Exchange.BODY_LIMIT);
    return wire.reply(Failures.readJson(body), provider.name(), request.model());
  }

  /** Sends the request and waits for its status: a status other than 2xx is a failure. */
  private Exchange send(
      Wire wire,
      ModelProvider provider,
      String key,
      ChatRequest request,
      boolean stream,
      Cancellation cancellation)
      throws ModelFailure, InterruptedException {
    URI endpoint = wire.endpoint(provider.baseUrl());
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(endpoint)
            .timeout(idle)
            .header("content-type", "application/json")
            .header("accept", stream ? "text/event-stream" : "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Json.write(wire.body(request, provider.baseUrl(), stream)),
                    StandardCharsets.UTF_8));
    wire.authorize(builder, key);
    log.debug("calling {} at {} for {}", provider.name(), endpoint, request.model());
    Exchange exchange = Exchange.open(http, builder.build(), provider.name(), idle, cancellation);
    int status = exchange.status();
    if (status >= 200 && status < 300) {
      return exchange;
    }
    try (exchange) {
      String body = exchange.readAll(Failures.ANSWER_LIMIT);
      throw Failures.ofStatus(provider.name(), status, exchange.headers(), body, key, clock);
    }
  }
}
