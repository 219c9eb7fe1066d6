package dev.cortex.server.channels.feishu;

import dev.cortex.base.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The parts of Feishu's (and Lark's) open platform HTTP API that the front door uses, on one base
 * URL: the app's tenant access token ({@code auth/v3/tenant_access_token/internal}, kept until
 * shortly before it expires and fetched again when refused), the bot's own identity ({@code
 * bot/v3/info}), messages to a chat ({@code im/v1/messages}) and file uploads ({@code
 * im/v1/files}). Every answer is {@code {"code": 0, ...}} when it went well; any other code is a
 * {@link Failure} with Feishu's message. Redirects are never followed.
 */
public final class FeishuApi {
  /** How long a call may take; an upload has {@link #UPLOAD_TIMEOUT}. */
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  static final Duration UPLOAD_TIMEOUT = Duration.ofMinutes(10);

  /** A token is fetched again this long before Feishu says it expires. */
  static final Duration EARLY = Duration.ofMinutes(5);

  /** The largest file {@code im/v1/files} takes. */
  public static final long MAX_FILE_BYTES = 30L * 1024 * 1024;

  /** The largest answer read. */
  static final int MAX_ANSWER_BYTES = 1024 * 1024;

  /** Feishu's codes for a tenant access token it no longer takes. */
  static final Set<Integer> TOKEN_REFUSED = Set.of(99991661, 99991663, 99991677);

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A call Feishu answered with a code other than 0, or could not be made; safe to show. */
  public static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    private final int code;

    Failure(int code, String message) {
      super(message);
      this.code = code;
    }

    /** Feishu's code, or -1 when the call did not reach it (or its answer was not Feishu's). */
    public int code() {
      return code;
    }
  }

  /** The bot's open id and its app's name. */
  public record Bot(String openId, String name) {}

  private final URI base;
  private final String appId;
  private final String appSecret;
  private final Clock clock;
  private final HttpClient http;
  private String token;
  private Instant tokenUntil = Instant.MIN;

  public FeishuApi(URI base, String appId, String appSecret, Clock clock) {
    this.base = Objects.requireNonNull(base, "base");
    this.appId = Objects.requireNonNull(appId, "appId");
    this.appSecret = Objects.requireNonNull(appSecret, "appSecret");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.http =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  /** The bot of the app, which also proves the app's id and secret. */
  public Bot bot() throws Failure {
    JsonNode answer = call("GET", "bot/v3/info", null);
    JsonNode bot = answer.path("bot");
    String openId = bot.path("open_id").asString(null);
    if (openId == null || openId.isBlank()) {
      throw new Failure(-1, "bot/v3/info names no bot: is the app's bot capability on?");
    }
    return new Bot(openId, bot.path("app_name").asString(null));
  }

  /**
   * Sends a message of {@code type} with {@code content} (its JSON, as Feishu wants it) to the chat
   * {@code chatId}; {@code uuid}, when given, makes a second send of it within the hour the same
   * message. Answers the message's id.
   */
  public String send(String chatId, String type, Object content, String uuid) throws Failure {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("receive_id", chatId);
    body.put("msg_type", type);
    body.put("content", Json.write(content));
    if (uuid != null) {
      body.put("uuid", uuid);
    }
    JsonNode answer = call("POST", "im/v1/messages?receive_id_type=chat_id", body);
    return answer.path("data").path("message_id").asString(null);
  }

  /** Uploads {@code file} as {@code name} and answers its {@code file_key}. */
  public String upload(Path file, String name) throws Failure {
    String boundary = "cortex-" + HexFormat.of().formatHex(bytes(12));
    String head =
        field(boundary, "file_type", fileType(name))
            + field(boundary, "file_name", name)
            + "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
            + name.replace("\"", "%22").replace("\r", "").replace("\n", "")
            + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
    HttpRequest.BodyPublisher body;
    try {
      body =
          HttpRequest.BodyPublishers.concat(
              HttpRequest.BodyPublishers.ofString(head),
              HttpRequest.BodyPublishers.ofFile(file),
              HttpRequest.BodyPublishers.ofString("\r\n--" + boundary + "--\r\n"));
    } catch (IOException e) {
      throw new Failure(-1, "the file could not be read");
    }
    JsonNode answer =
        authorized(
            token ->
                HttpRequest.newBuilder(base.resolve("im/v1/files"))
                    .timeout(UPLOAD_TIMEOUT)
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .POST(body)
                    .build());
    String key = answer.path("data").path("file_key").asString(null);
    if (key == null) {
      throw new Failure(-1, "Feishu's answer names no file_key");
    }
    return key;
  }

  /**
   * The {@code file_type} of a file named {@code name}: its kind when Feishu has one, else stream.
   */
  static String fileType(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String extension = lower.contains(".") ? lower.substring(lower.lastIndexOf('.') + 1) : "";
    switch (extension) {
      case "pdf":
        return "pdf";
      case "doc":
      case "docx":
        return "doc";
      case "xls":
      case "xlsx":
        return "xls";
      case "ppt":
      case "pptx":
        return "ppt";
      default:
        return "stream";
    }
  }

  private static String field(String boundary, String name, String value) {
    return "--"
        + boundary
        + "\r\nContent-Disposition: form-data; name=\""
        + name
        + "\"\r\n\r\n"
        + value
        + "\r\n";
  }

  /** A JSON call with the tenant access token. */
  JsonNode call(String method, String path, Object body) throws Failure {
    return authorized(
        token -> {
          HttpRequest.Builder request =
              HttpRequest.newBuilder(base.resolve(path))
                  .timeout(TIMEOUT)
                  .header("Authorization", "Bearer " + token);
          if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
          } else {
            request
                .header("Content-Type", "application/json; charset=utf-8")
                .method(method, HttpRequest.BodyPublishers.ofString(Json.write(body)));
          }
          return request.build();
        });
  }

  private interface Request {
    HttpRequest with(String token);
  }

  /** Sends the request with the token; a token Feishu no longer takes is fetched again, once. */
  private JsonNode authorized(Request request) throws Failure {
    String current = token(false);
    try {
      return exchange(request.with(current));
    } catch (Failure e) {
      if (!TOKEN_REFUSED.contains(e.code())) {
        throw e;
      }
      return exchange(request.with(token(true)));
    }
  }

  /** The tenant access token, fetched when there is none, it is near its end, or {@code again}. */
  synchronized String token(boolean again) throws Failure {
    Instant now = clock.instant();
    if (!again && token != null && now.isBefore(tokenUntil)) {
      return token;
    }
    String body = Json.write(Map.of("app_id", appId, "app_secret", appSecret));
    JsonNode answer =
        exchange(
            HttpRequest.newBuilder(base.resolve("auth/v3/tenant_access_token/internal"))
                .timeout(TIMEOUT)
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    String fresh = answer.path("tenant_access_token").asString(null);
    if (fresh == null || fresh.isBlank()) {
      throw new Failure(-1, "Feishu's answer holds no tenant_access_token");
    }
    long seconds = answer.path("expire").asLong(7200);
    token = fresh;
    tokenUntil = now.plusSeconds(seconds).minus(EARLY);
    return fresh;
  }

  private JsonNode exchange(HttpRequest request) throws Failure {
    // The call's name (im/v1/messages) for messages: never its query or a token.
    String what = base.relativize(request.uri()).getPath();
    HttpResponse<byte[]> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new Failure(-1, what + " could not be reached (" + e.getClass().getSimpleName() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure(-1, what + " was interrupted");
    }
    byte[] bytes = response.body();
    JsonNode answer = null;
    if (bytes != null && bytes.length <= MAX_ANSWER_BYTES) {
      try {
        answer = Json.mapper().readTree(bytes);
      } catch (JacksonException e) {
        answer = null;
      }
    }
    if (answer == null || !answer.isObject() || !answer.has("code")) {
      throw new Failure(
          -1, what + " answered HTTP " + response.statusCode() + " without Feishu's body");
    }
    int code = answer.path("code").asInt(-1);
    if (code != 0) {
      String message = answer.path("msg").asString("");
      message = message.length() <= 200 ? message : message.substring(0, 200) + "...";
      throw new Failure(code, what + ": " + code + " " + message);
    }
    return answer;
  }

  /** A fresh {@code uuid} for a message (Feishu takes up to 50 characters). */
  static String uuid() {
    return HexFormat.of().formatHex(bytes(16));
  }

  private static byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
