package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The {@code http} kind: sends one HTTP request and returns the status, headers and body. */
public final class HttpActivity implements Activity {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** The client all instances share, built on first use. */
  private static final class Shared {
    static final HttpClient CLIENT =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  private final Supplier<HttpClient> client;
  private final int bodyLimit;

  public HttpActivity() {
    this(() -> Shared.CLIENT, CappedBuffer.DEFAULT_LIMIT);
  }

  HttpActivity(Supplier<HttpClient> client, int bodyLimit) {
    this.client = client;
    this.bodyLimit = bodyLimit;
  }

  @Override
  public StepKind kind() {
    return StepKind.HTTP;
  }

  @Override
  public String description() {
    return "Sends one HTTP request and returns the response's status, headers and body, parsed"
        + " when it is JSON.";
  }

  @Override
  public String outputDescription() {
    return "{status, headers (lower-case names), body (parsed JSON for JSON content types,"
        + " else text)}; body_truncated past 16 MiB. Status 400 and above fails the step"
        + " (kind http_status) unless fail_on_status is false.";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return Schema.object()
        .required("url", Schema.pattern("The http or https URL to request.", "^https?://"))
        .optional(
            "method",
            Schema.enumOf(
                "The request method. Default GET.",
                "GET",
                "POST",
                "PUT",
                "PATCH",
                "DELETE",
                "HEAD"))
        .optional("headers", OutputText.stringMap("Request headers, by name."))
        .optional(
            "body",
            Map.of(
                "description",
                "The request body: a string is sent as it is; any other JSON value is sent as JSON,"
                    + " with Content-Type application/json unless headers set one."))
        .optional(
            "fail_on_status",
            Schema.bool(
                "Fail the step when the status is 400 or more (retried only for 408, 429 and 5xx)."
                    + " Default true."))
        .build();
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    JsonNode with = input.with();
    URI uri = uri(with.path("url").asString(""));
    HttpRequest request = request(uri, with, input.timeoutDuration());
    CappedBuffer body = new CappedBuffer(bodyLimit);
    CompletableFuture<HttpResponse<Void>> sent =
        client
            .get()
            .sendAsync(
                request,
                info ->
                    HttpResponse.BodySubscribers.ofByteArrayConsumer(
                        chunk -> chunk.ifPresent(bytes -> body.write(bytes, 0, bytes.length))));
    HttpResponse<Void> response;
    try {
      response = sent.get();
    } catch (InterruptedException e) {
      sent.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      throw failure(uri, e.getCause());
    }
    ObjectNode output = output(response, body);
    int status = response.statusCode();
    if (status >= 400 && with.path("fail_on_status").asBoolean(true)) {
      throw new ActivityFailure(
          "http_status", statusMessage(status, uri, output), output, retryable(status));
    }
    return ActivityResult.of(output, "HTTP " + status + ", " + OutputText.size(body.total()));
  }

  @Override
  public List<String> preflight(
      dev.cortex.workflows.manifest.Step step,
      dev.cortex.workflows.manifest.Manifest manifest,
      ActivityEnvironment environment) {
    List<String> problems = new ArrayList<>();
    OutputText.literal(step.with(), "url")
        .flatMap(HttpActivity::urlProblem)
        .ifPresent(p -> problems.add("step '" + step.id() + "': " + p));
    if (step.with().get("headers") instanceof Map<?, ?> headers) {
      for (Map.Entry<?, ?> header : headers.entrySet()) {
        String name = String.valueOf(header.getKey());
        String value =
            header.getValue() instanceof String text && OutputText.isLiteral(text) ? text : "x";
        headerProblem(name, value).ifPresent(p -> problems.add("step '" + step.id() + "': " + p));
      }
    }
    return problems;
  }

  /** Why {@code url} cannot be requested; empty when it can. */
  private static Optional<String> urlProblem(String url) {
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      return Optional.of("url '" + url + "' is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      return Optional.of("url '" + url + "' is not an http or https URL with a host");
    }
    return Optional.empty();
  }

  /** Why a request cannot carry header {@code name} (with {@code value}); empty when it can. */
  private static Optional<String> headerProblem(String name, String value) {
    try {
      HttpRequest.newBuilder(URI.create("http://localhost/")).header(name, value);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of("header '" + name + "' cannot be set: " + e.getMessage());
    }
  }

  private static URI uri(String url) throws ActivityFailure {
    Optional<String> problem = urlProblem(url);
    if (problem.isPresent()) {
      throw invalidInput(problem.get());
    }
    return URI.create(url);
  }

  private static HttpRequest request(URI uri, JsonNode with, Optional<Duration> timeout)
      throws ActivityFailure {
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri);
    timeout.ifPresent(builder::timeout);
    boolean contentType = false;
    for (Map.Entry<String, JsonNode> header : with.path("headers").properties()) {
      String name = header.getKey();
      try {
        builder.header(name, header.getValue().asString());
      } catch (IllegalArgumentException e) {
        throw invalidInput("header '" + name + "' cannot be set: " + e.getMessage());
      }
      contentType |= name.equalsIgnoreCase("content-type");
    }
    JsonNode body = with.path("body");
    HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.noBody();
    if (body.isString()) {
      publisher = HttpRequest.BodyPublishers.ofString(body.stringValue(), StandardCharsets.UTF_8);
    } else if (!body.isMissingNode() && !body.isNull()) {
      publisher = HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8);
      if (!contentType) {
        builder.header("Content-Type", "application/json");
      }
    }
    return builder.method(with.path("method").asString("GET"), publisher).build();
  }

  private static ObjectNode output(HttpResponse<Void> response, CappedBuffer body) {
    ObjectNode output = Json.mapper().createObjectNode();
    output.put("status", response.statusCode());
    ObjectNode headers = output.putObject("headers");
    headers(response).forEach((name, values) -> headers.put(name, String.join(", ", values)));
    String contentType = response.headers().firstValue("content-type").orElse("");
    String text = body.text(charset(contentType));
    output.set("body", body(text, isJson(contentType) && !body.truncated()));
    if (body.truncated()) {
      output.put("body_truncated", true);
    }
    return output;
  }

  private static Map<String, List<String>> headers(HttpResponse<Void> response) {
    Map<String, List<String>> merged = new TreeMap<>();
    response
        .headers()
        .map()
        .forEach(
            (name, values) -> {
              if (!name.startsWith(":")) {
                merged
                    .computeIfAbsent(name.toLowerCase(Locale.ROOT), key -> new ArrayList<>())
                    .addAll(values);
              }
            });
    return merged;
  }

  private static JsonNode body(String text, boolean json) {
    if (json && !text.isBlank()) {
      try {
        return OutputText.parseJson(text);
      } catch (IllegalArgumentException e) {
        // Declared JSON but is not: the author sees the text.
      }
    }
    return Json.mapper().getNodeFactory().stringNode(text);
  }

  private static boolean isJson(String contentType) {
    String media = mediaType(contentType);
    return media.equals("application/json") || media.endsWith("+json");
  }

  private static String mediaType(String contentType) {
    return contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
  }

  private static Charset charset(String contentType) {
    for (String parameter : contentType.split(";")) {
      String[] pair = parameter.strip().split("=", 2);
      if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
        try {
          return Charset.forName(pair[1].strip().replace("\"", ""));
        } catch (IllegalArgumentException e) {
          return StandardCharsets.UTF_8;
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  private static String statusMessage(int status, URI uri, ObjectNode output) {
    String message = "HTTP " + status + " from " + uri.getHost();
    JsonNode body = output.get("body");
    String media = mediaType(output.path("headers").path("content-type").asString(""));
    String detail =
        body.isString()
            ? (media.equals("text/plain") ? OutputText.firstLine(body.stringValue()) : "")
            : OutputText.shorten(Json.write(body));
    return detail.isEmpty() ? message : message + ": " + detail;
  }

  private static boolean retryable(int status) {
    return status == 408 || status == 429 || status >= 500;
  }

  private static ActivityFailure failure(URI uri, Throwable cause) {
    String host = uri.getHost() + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
    if (cause instanceof IllegalArgumentException) {
      return invalidInput("the request cannot be sent: " + cause.getMessage());
    }
    if (cause instanceof HttpConnectTimeoutException) {
      return network("connecting to " + host + " timed out");
    }
    if (cause instanceof HttpTimeoutException) {
      return new ActivityFailure("timeout", "no response from " + host + " in time");
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof UnknownHostException) {
        return network("unknown host '" + uri.getHost() + "'");
      }
      if (t instanceof ConnectException) {
        return network("cannot connect to " + host + ": connection refused");
      }
      if (t instanceof SSLException) {
        return network("TLS with " + host + " failed: " + reason(t));
      }
    }
    if (cause instanceof IOException) {
      return network("request to " + host + " failed: " + reason(cause));
    }
    return network("request to " + host + " failed");
  }

  private static String reason(Throwable error) {
    String message = OutputText.withoutClassNames(error.getMessage());
    return message.isEmpty() ? "connection error" : OutputText.firstLine(message);
  }

  private static ActivityFailure network(String message) {
    return new ActivityFailure("network", message);
  }

  private static ActivityFailure invalidInput(String message) {
    return new ActivityFailure("invalid_input", message, null, false);
  }
}
