package dev.cortex.server.client;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.Deadline;
import dev.cortex.base.ErrorCodes;
import dev.cortex.base.Json;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * How MCP tools reach the agent server ({@code cortex server}): POSTs to its loopback webhook with
 * the {@code x-cortex-token} header and the webhook protocol version, under the infrastructure
 * deadline of 30 min 30 s (a tool's own deadline, plus 30 s for its answer to come back, when
 * shorter). A daemon that is not running, refuses the token or speaks another protocol version is
 * an {@code UNAVAILABLE} error with a sentence that says what to do; the token never appears in a
 * message or a log line.
 *
 * <p>An answer is a stream of JSON lines: any number of events (e.g. a remote command's output as
 * it arrives), then one line holding {@code result} or {@code error}.
 */
public final class AgentServerClient {
  private static final Logger log = LoggerFactory.getLogger(AgentServerClient.class);

  private static final ScheduledExecutorService DEADLINES =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "cortex-daemon-deadlines");
            thread.setDaemon(true);
            return thread;
          });

  /** How much of an answer after its result line is read, at most, before the body is closed. */
  private static final long DRAIN_LIMIT = 64 * 1024;

  /** One HTTP client per process: its threads and connections serve every call. */
  private static volatile HttpClient shared;

  private final Map<String, String> env;
  private final CortexHome home;
  private final FileValue<Integer> serverFile;
  private final FileValue<Secret> tokenFile;

  /**
   * The client of the agent server that {@code env} and {@code home} describe. Build one per
   * process and share it: it reads where the server is and which token it takes at each request, so
   * that a server started (or restarted) later is found.
   */
  public AgentServerClient(Map<String, String> env, CortexHome home) {
    this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
    this.home = Objects.requireNonNull(home, "home");
    this.serverFile = new FileValue<>(home.dataDir().resolve(Webhook.SERVER_FILE));
    this.tokenFile = new FileValue<>(home.configDir().resolve(Webhook.TOKEN_FILE));
  }

  /**
   * The webhook's port as the environment says: {@code WEBHOOK_PORT}, else the port the running
   * server recorded in {@code data/server.json}, else 3001.
   *
   * @throws CodedException {@code UNAVAILABLE} when {@code WEBHOOK_PORT} is not a port number
   */
  public int webhookPort() {
    String value = env.get("WEBHOOK_PORT");
    if (value != null && !value.isBlank()) {
      try {
        int port = Integer.parseInt(value.strip());
        if (port > 0 && port <= 65535) {
          return port;
        }
      } catch (NumberFormatException e) {
        // falls through to the message below
      }
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "WEBHOOK_PORT must be a port number from 1 to 65535, got '" + value + "'.");
    }
    Integer recorded =
        serverFile.read(
            text -> {
              JsonNode server = Json.mapper().readTree(text);
              return server.path("webhook_port").isInt()
                  ? server.path("webhook_port").asInt()
                  : null;
            });
    return recorded != null ? recorded : Webhook.DEFAULT_PORT;
  }

  /** {@code CORTEX_WEBHOOK_TOKEN}, else the token file the server keeps in {@code config/}. */
  private Secret token() {
    String value = env.get("CORTEX_WEBHOOK_TOKEN");
    if (value != null && !value.isBlank()) {
      return new Secret(value.strip());
    }
    return tokenFile.read(text -> new Secret(text.strip()));
  }

  /** Where one request goes: the loopback webhook's port, and the token it takes. */
  private record Endpoint(String host, int port, Secret token) {}

  /**
   * POSTs {@code body} as JSON to {@code route} and returns the answer's {@code result}.
   *
   * @param deadline the tool's own deadline; the request ends at it plus {@link
   *     Webhook#ANSWER_MARGIN}, and never later than {@link Webhook#INFRASTRUCTURE_DEADLINE} from
   *     now
   * @param events receives each event line before the result, on the calling thread
   * @throws CodedException {@code UNAVAILABLE} when the daemon cannot be reached, refuses or times
   *     out; the daemon's own code and message when it answers with an error
   */
  public JsonNode post(
      String route,
      Object body,
      Deadline deadline,
      Cancellation cancellation,
      Consumer<JsonNode> events) {
    Deadline answer =
        deadline.extendedBy(Webhook.ANSWER_MARGIN).atMost(Webhook.INFRASTRUCTURE_DEADLINE);
    if (answer.expired()) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The call's time ran out before the agent server was asked; nothing was sent.");
    }
    return send(route, body, answer.remaining(), cancellation, events);
  }

  /**
   * Like {@link #post(String, Object, Deadline, Cancellation, Consumer)}, with the tool's deadline
   * {@code timeout} from now ({@code null}: the request may last {@link
   * Webhook#INFRASTRUCTURE_DEADLINE}).
   */
  public JsonNode post(
      String route,
      Object body,
      Duration timeout,
      Cancellation cancellation,
      Consumer<JsonNode> events) {
    if (timeout == null) {
      return send(route, body, Webhook.INFRASTRUCTURE_DEADLINE, cancellation, events);
    }
    return post(route, body, Deadline.after(timeout, Clock.systemUTC()), cancellation, events);
  }

  /**
   * Like {@link #post(String, Object, Duration, Cancellation, Consumer)}, with the answer read as
   * {@code type} (a wire record).
   *
   * @throws CodedException {@code INTERNAL} when the answer is not a {@code type}: the daemon is
   *     another version
   */
  public <T> T post(
      String route, Object body, Class<T> type, Duration timeout, Cancellation cancellation) {
    JsonNode answer = post(route, body, timeout, cancellation, e -> {});
    try {
      return dev.cortex.protocol.WireJson.mapper().treeToValue(answer, type);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new CodedException(
          ErrorCodes.INTERNAL,
          "The agent server's answer could not be read; is it the same version as this cortex?");
    }
  }

  /**
   * Like {@link #post(String, Object, Duration, Cancellation, Consumer)}, for a person's command
   * that follows a long answer (a session's turn): the request may last {@code limit}, beyond the
   * tools' {@link Webhook#INFRASTRUCTURE_DEADLINE}.
   */
  public JsonNode follow(
      String route,
      Object body,
      Duration limit,
      Cancellation cancellation,
      Consumer<JsonNode> events) {
    return send(route, body, Objects.requireNonNull(limit, "limit"), cancellation, events);
  }

  private JsonNode send(
      String route,
      Object body,
      Duration limit,
      Cancellation cancellation,
      Consumer<JsonNode> events) {
    Objects.requireNonNull(cancellation, "cancellation");
    Endpoint endpoint = new Endpoint("127.0.0.1", webhookPort(), token());
    String host = endpoint.host();
    int port = endpoint.port();
    Secret token = endpoint.token();
    if (token == null) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "No webhook token: set CORTEX_WEBHOOK_TOKEN, or start the agent server once with"
              + " 'cortex server' so that it writes its token file.");
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + route))
            .timeout(limit)
            .header("Content-Type", "application/json")
            .header(Webhook.TOKEN_HEADER, token.value())
            .header(Webhook.PROTOCOL_HEADER, Integer.toString(Webhook.PROTOCOL))
            .POST(HttpRequest.BodyPublishers.ofString(Json.write(body), StandardCharsets.UTF_8))
            .build();
    CompletableFuture<HttpResponse<InputStream>> pending =
        client().sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    RequestStopper stopper = new RequestStopper(pending, host, port, limit);
    ScheduledFuture<?> timer =
        DEADLINES.schedule(stopper::expire, limit.toMillis(), TimeUnit.MILLISECONDS);
    try (Cancellation.Registration ignored = cancellation.onCancel(stopper::cancel)) {
      return answer(route, endpoint, stopper.await(), stopper, events);
    } finally {
      timer.cancel(false);
      stopper.close();
    }
  }

  private static HttpClient client() {
    HttpClient built = shared;
    if (built == null) {
      synchronized (AgentServerClient.class) {
        if (shared == null) {
          shared =
              HttpClient.newBuilder()
                  .version(HttpClient.Version.HTTP_1_1)
                  .connectTimeout(Duration.ofSeconds(5))
                  .followRedirects(HttpClient.Redirect.NEVER)
                  .build();
        }
        built = shared;
      }
    }
    return built;
  }

  private JsonNode answer(
      String route,
      Endpoint endpoint,
      HttpResponse<InputStream> response,
      RequestStopper stopper,
      Consumer<JsonNode> events) {
    int status = response.statusCode();
    try (InputStream in = response.body()) {
      stopper.body(in);
      var lines =
          new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode node = Json.mapper().readTree(line);
        if (node.has("error")) {
          throw refusal(endpoint.port(), status, node.path("error"));
        }
        if (node.has("result")) {
          drain(in);
          return node.path("result");
        }
        events.accept(node);
      }
    } catch (IOException | JacksonException e) {
      stopper.rethrowIfStopped(true);
      log.debug("reading the answer of {} failed", route, e);
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The agent server stopped answering (it may have been stopped or restarted); the request"
              + " may or may not have been carried out.");
    }
    stopper.rethrowIfStopped(true);
    if (status != 200) {
      throw unexpectedStatus(status);
    }
    throw new CodedException(
        ErrorCodes.UNAVAILABLE,
        "The agent server ended its answer without a result; the request may or may not have been"
            + " carried out.");
  }

  /**
   * Reads what is left of an answer after its result line (its end, normally), so that the HTTP
   * client keeps the connection for the next request; closing a body before its end makes it open a
   * new one. Gives up after {@link #DRAIN_LIMIT} bytes.
   */
  private static void drain(InputStream in) throws IOException {
    byte[] chunk = new byte[512];
    long left = DRAIN_LIMIT;
    for (int n = in.read(chunk); n >= 0 && left > 0; n = in.read(chunk)) {
      left -= n;
    }
  }

  private static CodedException refusal(int port, int status, JsonNode error) {
    String code = error.path("code").asString("");
    String message = error.path("message").asString("");
    if (status == 401) {
      return new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The agent server on port "
              + port
              + " refused this server's webhook token. CORTEX_WEBHOOK_TOKEN must be the token of"
              + " the running 'cortex server' (its token file is config/webhook-token in the"
              + " Cortex home).");
    }
    if (status == 409 && "PROTOCOL_MISMATCH".equals(code)) {
      return new CodedException(
          ErrorCodes.UNAVAILABLE,
          message
              + " This cortex speaks webhook protocol "
              + Webhook.PROTOCOL
              + ": restart 'cortex server' from the same installation as this MCP server.");
    }
    if (code.isEmpty() || message.isEmpty()) {
      return unexpectedStatus(status);
    }
    return new CodedException(code, message);
  }

  private static CodedException unexpectedStatus(int status) {
    return new CodedException(
        ErrorCodes.UNAVAILABLE,
        "The agent server answered HTTP " + status + " without a usable body.");
  }

  /**
   * What a small file says, read again only when its modification time, size or file key changed
   * since the last read (a server restarted writes its files anew), so that a request costs a
   * {@code stat} of each rather than a read and a parse.
   */
  private static final class FileValue<T> {
    interface Reader<T> {
      T read(String text) throws IOException;
    }

    private record Seen<T>(FileTime modified, long size, Object key, T value) {}

    private final Path file;
    private volatile Seen<T> seen;

    FileValue(Path file) {
      this.file = file;
    }

    /** The value {@code reader} makes of the file, or null when it is missing or unreadable. */
    T read(Reader<T> reader) {
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(file, BasicFileAttributes.class);
      } catch (IOException e) {
        seen = null;
        return null;
      }
      if (!attributes.isRegularFile()) {
        return null;
      }
      Seen<T> last = seen;
      if (last != null
          && last.modified().equals(attributes.lastModifiedTime())
          && last.size() == attributes.size()
          && Objects.equals(last.key(), attributes.fileKey())) {
        return last.value();
      }
      try {
        T value = reader.read(Files.readString(file));
        seen =
            new Seen<>(
                attributes.lastModifiedTime(), attributes.size(), attributes.fileKey(), value);
        return value;
      } catch (IOException | JacksonException e) {
        log.debug("cannot read {}", file.getFileName(), e);
        return null;
      }
    }
  }

  /** A secret whose {@code toString} never shows it. */
  private record Secret(String value) {
    @Override
    public String toString() {
      return "Secret[redacted]";
    }
  }
}
