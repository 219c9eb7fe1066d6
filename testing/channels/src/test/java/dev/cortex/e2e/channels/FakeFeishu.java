package dev.cortex.e2e.channels;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.TestJson;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import tools.jackson.databind.JsonNode;

/**
 * A local server that speaks the parts of Feishu's open platform that Cortex uses, with the request
 * shapes of its public docs: {@code auth/v3/tenant_access_token/internal} (the app's id and secret
 * for a token), {@code bot/v3/info}, {@code im/v1/messages?receive_id_type=chat_id} and {@code
 * im/v1/files} (multipart), each answering {@code {"code": 0, ...}} or Feishu's error codes. It
 * records every call. On the other side it plays Feishu's event subscription: events posted to the
 * agent server's {@code /feishu/events} as Feishu sends them (encrypted and signed with an encrypt
 * key).
 */
public final class FakeFeishu implements AutoCloseable {
  static final String APP_ID = "cli_fake_app_01";
  static final String APP_SECRET = "fake-app-secret-3b9d";
  static final String VERIFICATION = "fake-verification-token-71c0";
  static final String ENCRYPT_KEY = "fake-encrypt-key-a55e";
  static final String BOT = "ou_bot_0001";
  static final String TENANT = "tenant_fake";

  /** A call as it arrived: its path, its JSON or form fields, the token it carried. */
  record Call(
      String path,
      String query,
      JsonNode json,
      Map<String, String> form,
      String token,
      boolean accepted) {}

  final List<Call> calls = new CopyOnWriteArrayList<>();
  final List<byte[]> uploads = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final Server jetty = new Server();
  private final Map<String, String> sentByUuid = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile String token = "t-fake-tenant-token-" + ids.incrementAndGet();
  private volatile boolean refuseSecret;
  private volatile boolean failMessages;

  FakeFeishu() throws Exception {
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    jetty.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            byte[] body;
            try (InputStream in = Content.Source.asInputStream(request)) {
              body = in.readAllBytes();
            }
            String answer = answer(request, body);
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            Content.Sink.write(response, true, answer, callback);
            return true;
          }
        });
    jetty.start();
  }

  String apiUrl() {
    return "http://127.0.0.1:" + port() + "/open-apis/";
  }

  int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  /** Makes the token endpoint refuse the app's secret (a revoked secret) from now on, or not. */
  void refuseSecret(boolean refuse) {
    refuseSecret = refuse;
  }

  /** Makes every message send fail with a server error, or not. */
  void failMessages(boolean fail) {
    failMessages = fail;
  }

  /** Ends the current tenant token: calls with it are refused until a new one is fetched. */
  void expireToken() {
    token = "t-fake-tenant-token-" + ids.incrementAndGet();
  }

  /** The calls to {@code path} (after {@code /open-apis/}). */
  List<Call> calls(String path) {
    return calls.stream().filter(c -> c.path().equals(path)).toList();
  }

  /** The contents of the messages of {@code type} sent to {@code chat}, in order. */
  List<JsonNode> sent(String chat, String type) {
    return calls("im/v1/messages").stream()
        .filter(c -> c.json() != null && chat.equals(c.json().path("receive_id").asString()))
        .filter(c -> type.equals(c.json().path("msg_type").asString()))
        .filter(Call::accepted)
        .map(c -> TestJson.JSON.readTree(c.json().path("content").asString()))
        .toList();
  }

  /** The texts sent to {@code chat}, in order: a message sent again with its uuid counts once. */
  List<String> texts(String chat) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    return calls("im/v1/messages").stream()
        .filter(Call::accepted)
        .filter(c -> chat.equals(c.json().path("receive_id").asString()))
        .filter(c -> "text".equals(c.json().path("msg_type").asString()))
        .filter(
            c ->
                c.json().path("uuid").isMissingNode() || seen.add(c.json().path("uuid").asString()))
        .map(
            c ->
                TestJson.JSON.readTree(c.json().path("content").asString()).path("text").asString())
        .toList();
  }

  private String answer(Request request, byte[] body) throws Exception {
    String path = request.getHttpURI().getPath();
    String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    JsonNode json = null;
    Map<String, String> form = Map.of();
    if (type != null && type.startsWith("multipart/form-data")) {
      form = multipart(type, body);
    } else if (body.length > 0) {
      json = TestJson.JSON.readTree(body);
    }
    String bearer = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    String given = bearer != null && bearer.startsWith("Bearer ") ? bearer.substring(7) : null;
    String answer = answer(request, path, json, form, given);
    calls.add(
        new Call(
            path.replaceFirst("^/open-apis/", ""),
            request.getHttpURI().getQuery(),
            json,
            form,
            given,
            answer.startsWith("{\"code\":0,")));
    return answer;
  }

  private String answer(
      Request request, String path, JsonNode json, Map<String, String> form, String given)
      throws Exception {
    if (!path.startsWith("/open-apis/")) {
      return error(404, "not found");
    }
    path = path.substring("/open-apis/".length());
    if (path.equals("auth/v3/tenant_access_token/internal")) {
      if (refuseSecret
          || json == null
          || !APP_ID.equals(json.path("app_id").asString())
          || !APP_SECRET.equals(json.path("app_secret").asString())) {
        return error(10014, "app secret invalid");
      }
      return "{\"code\":0,\"msg\":\"ok\",\"tenant_access_token\":\""
          + token
          + "\",\"expire\":7200}";
    }
    if (!token.equals(given)) {
      return error(
          99991663,
          "Invalid access token for authorization. Please make a request with token attached.");
    }
    switch (path) {
      case "bot/v3/info":
        return "{\"code\":0,\"msg\":\"ok\",\"bot\":{\"activate_status\":2,\"app_name\":\"Cortex\","
            + "\"open_id\":\""
            + BOT
            + "\"}}";
      case "im/v1/messages":
        {
          if (!"receive_id_type=chat_id".equals(request.getHttpURI().getQuery())) {
            return error(99992402, "field validation failed: receive_id_type");
          }
          if (failMessages) {
            return error(230002, "The bot can not be outside the group.");
          }
          String uuid = json.path("uuid").asString(null);
          String id =
              uuid == null
                  ? "om_" + ids.incrementAndGet()
                  : sentByUuid.computeIfAbsent(uuid, u -> "om_" + ids.incrementAndGet());
          return "{\"code\":0,\"msg\":\"success\",\"data\":{\"message_id\":\"" + id + "\"}}";
        }
      case "im/v1/files":
        {
          if (!List.of("opus", "mp4", "pdf", "doc", "xls", "ppt", "stream")
                  .contains(form.getOrDefault("file_type", ""))
              || !form.containsKey("file_name")
              || !form.containsKey("file")) {
            return error(234001, "Invalid request param.");
          }
          uploads.add(form.get("file").getBytes(StandardCharsets.ISO_8859_1));
          return "{\"code\":0,\"msg\":\"success\",\"data\":{\"file_key\":\"file_v3_"
              + ids.incrementAndGet()
              + "\"}}";
        }
      default:
        return error(404, "not found");
    }
  }

  private static String error(int code, String message) {
    return "{\"code\":" + code + ",\"msg\":" + TestJson.JSON.writeValueAsString(message) + "}";
  }

  /** The fields of a multipart body; a file's bytes as ISO-8859-1 text, one char per byte. */
  private static Map<String, String> multipart(String type, byte[] body) {
    String boundary = "--" + type.substring(type.indexOf("boundary=") + 9).replace("\"", "");
    String all = new String(body, StandardCharsets.ISO_8859_1);
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : all.split(java.util.regex.Pattern.quote(boundary))) {
      int split = part.indexOf("\r\n\r\n");
      if (split < 0) {
        continue;
      }
      String headers = part.substring(0, split);
      String content = part.substring(split + 4);
      if (content.endsWith("\r\n")) {
        content = content.substring(0, content.length() - 2);
      }
      java.util.regex.Matcher name =
          java.util.regex.Pattern.compile("name=\"([^\"]+)\"").matcher(headers);
      if (name.find()) {
        fields.put(name.group(1), content);
      }
    }
    return fields;
  }

  /** A text message event of schema 2.0, as Feishu sends {@code im.message.receive_v1}. */
  static Map<String, Object> message(
      String eventId, String chat, String user, String text, String messageId) {
    Map<String, Object> content = Map.of("text", text);
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("message_id", messageId);
    message.put("create_time", "1700000000000");
    message.put("chat_id", chat);
    message.put("chat_type", "group");
    message.put("message_type", "text");
    message.put("content", TestJson.JSON.writeValueAsString(content));
    if (text.startsWith("@_user_1")) {
      message.put(
          "mentions",
          List.of(
              Map.of(
                  "key",
                  "@_user_1",
                  "id",
                  Map.of("open_id", BOT, "union_id", "on_bot"),
                  "name",
                  "Cortex",
                  "tenant_key",
                  TENANT)));
    }
    Map<String, Object> sender = new LinkedHashMap<>();
    sender.put("sender_id", Map.of("open_id", user, "union_id", "on_" + user));
    sender.put("sender_type", "user");
    sender.put("tenant_key", TENANT);
    return event(eventId, "im.message.receive_v1", Map.of("sender", sender, "message", message));
  }

  /** A click on a card's button, as Feishu sends {@code card.action.trigger}. */
  static Map<String, Object> click(String eventId, String chat, String user, JsonNode value) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("operator", Map.of("open_id", user, "tenant_key", TENANT, "union_id", "on_" + user));
    event.put("token", "c-" + eventId);
    event.put(
        "action", Map.of("value", TestJson.JSON.convertValue(value, Map.class), "tag", "button"));
    event.put("host", "im_message");
    event.put("context", Map.of("open_message_id", "om_card", "open_chat_id", chat));
    return event(eventId, "card.action.trigger", event);
  }

  private static Map<String, Object> event(String id, String type, Map<String, Object> event) {
    Map<String, Object> header = new LinkedHashMap<>();
    header.put("event_id", id);
    header.put("token", VERIFICATION);
    header.put("create_time", "1700000000000");
    header.put("event_type", type);
    header.put("tenant_key", TENANT);
    header.put("app_id", APP_ID);
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("schema", "2.0");
    payload.put("header", header);
    payload.put("event", event);
    return payload;
  }

  /** Posts {@code payload} to the agent server's {@code /feishu/events} as plain JSON. */
  static HttpResponse<String> deliver(AgentServer server, Object payload) throws Exception {
    return post(server, TestJson.JSON.writeValueAsString(payload), Map.of());
  }

  /**
   * Posts {@code payload} encrypted with {@code key} and signed at {@code timestampSeconds} ({@code
   * signature} null: the right one).
   */
  static HttpResponse<String> deliverSealed(
      AgentServer server, Object payload, String key, long timestampSeconds, String signature)
      throws Exception {
    String body =
        TestJson.JSON.writeValueAsString(
            Map.of("encrypt", encrypt(key, TestJson.JSON.writeValueAsString(payload))));
    String timestamp = Long.toString(timestampSeconds);
    String nonce = HexFormat.of().formatHex(random(8));
    String signed = signature != null ? signature : sign(timestamp, nonce, key, body);
    return post(
        server,
        body,
        Map.of(
            "X-Lark-Request-Timestamp",
            timestamp,
            "X-Lark-Request-Nonce",
            nonce,
            "X-Lark-Signature",
            signed));
  }

  /** Posts {@code payload} encrypted with {@code key}, without signature headers. */
  static HttpResponse<String> deliverSealedUnsigned(AgentServer server, Object payload, String key)
      throws Exception {
    String body =
        TestJson.JSON.writeValueAsString(
            Map.of("encrypt", encrypt(key, TestJson.JSON.writeValueAsString(payload))));
    return post(server, body, Map.of());
  }

  private static HttpResponse<String> post(
      AgentServer server, String body, Map<String, String> headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.webhookPort + "/feishu/events"))
            .header("Content-Type", "application/json; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return AgentServer.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Feishu's signature: hex SHA-256 of timestamp, nonce, key and body, one after the other. */
  static String sign(String timestamp, String nonce, String key, String body) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256")
                .digest((timestamp + nonce + key + body).getBytes(StandardCharsets.UTF_8)));
  }

  /** Feishu's encryption: AES-256-CBC keyed with SHA-256 of the key, the IV first, base64. */
  static String encrypt(String key, String plain) throws Exception {
    byte[] iv = random(16);
    Cipher cipher = Cipher.getInstance("AES/CBC/PKCS5Padding");
    cipher.init(
        Cipher.ENCRYPT_MODE,
        new SecretKeySpec(
            MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)),
            "AES"),
        new IvParameterSpec(iv));
    byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
    byte[] all = new byte[iv.length + sealed.length];
    System.arraycopy(iv, 0, all, 0, iv.length);
    System.arraycopy(sealed, 0, all, iv.length, sealed.length);
    return java.util.Base64.getEncoder().encodeToString(all);
  }

  private static byte[] random(int n) {
    byte[] bytes = new byte[n];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
