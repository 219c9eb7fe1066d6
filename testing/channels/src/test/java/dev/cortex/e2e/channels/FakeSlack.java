package dev.cortex.e2e.channels;

import dev.cortex.testing.TestJson;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * A local server that speaks the parts of Slack that Cortex uses, with the request shapes of
 * Slack's public docs: the Web API methods {@code auth.test}, {@code apps.connections.open}, {@code
 * chat.postMessage}, {@code files.getUploadURLExternal} and {@code files.completeUploadExternal}
 * (form bodies, the token as {@code Authorization: Bearer}), the upload URL the second gives, and a
 * Socket Mode WebSocket that says hello and carries the envelopes a test pushes. It records every
 * call, the acknowledgements and the uploaded bytes.
 */
public final class FakeSlack implements AutoCloseable {
  static final String BOT_TOKEN = "xoxb-fake-bot-token-5d2e";
  static final String APP_TOKEN = "xapp-fake-app-token-9c41";
  static final String BOT_USER = "UBOT1";
  static final String TEAM = "T0TEAM";

  /** A Web API call as it arrived: the method, its form fields, and whether the token was right. */
  record Call(String method, Map<String, String> form, boolean authorized) {}

  final List<Call> calls = new CopyOnWriteArrayList<>();
  final List<String> acks = new CopyOnWriteArrayList<>();
  final List<byte[]> uploads = new CopyOnWriteArrayList<>();
  private final List<Session> sockets = new CopyOnWriteArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  final AtomicInteger opens = new AtomicInteger();
  private final Server jetty = new Server();
  private volatile boolean failAuth;

  FakeSlack() throws Exception {
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    PathMappingsHandler routes = new PathMappingsHandler();
    ContextHandler context = new ContextHandler("/");
    routes.addMapping(
        PathSpec.from("/socket"),
        WebSocketUpgradeHandler.from(
            jetty,
            context,
            container ->
                container.addMapping("/*", (request, response, callback) -> new Socket(this))));
    routes.addMapping(PathSpec.from("/upload/*"), handler(this::upload));
    routes.addMapping(PathSpec.from("/api/*"), handler(this::api));
    context.setHandler(routes);
    jetty.setHandler(context);
    jetty.start();
  }

  /** Makes {@code auth.test} refuse every token from now on (a revoked token). */
  void failAuth(boolean fail) {
    failAuth = fail;
  }

  String apiUrl() {
    return "http://127.0.0.1:" + port() + "/api/";
  }

  int port() {
    return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
  }

  /** Pushes an Events API envelope with {@code payload} to every connected socket; its id. */
  String push(Map<String, Object> payload) throws Exception {
    return push("events_api", payload);
  }

  /** A person's click on a button, as Slack's {@code block_actions} payload says it. */
  String click(String user, String channel, String actionId, String value) throws Exception {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("type", "block_actions");
    payload.put("user", Map.of("id", user, "team_id", TEAM));
    payload.put("team", Map.of("id", TEAM));
    payload.put("channel", Map.of("id", channel));
    payload.put("api_app_id", "A0APP");
    payload.put("trigger_id", "trigger-" + ids.incrementAndGet());
    payload.put(
        "actions",
        List.of(
            Map.of(
                "type",
                "button",
                "action_id",
                actionId,
                "value",
                value,
                "block_id",
                "q0",
                "action_ts",
                "1700000999.000001")));
    return push("interactive", payload);
  }

  private String push(String type, Map<String, Object> payload) throws Exception {
    String id = "env-" + ids.incrementAndGet();
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("envelope_id", id);
    envelope.put("type", type);
    envelope.put("accepts_response_payload", false);
    envelope.put("retry_attempt", 0);
    envelope.put("retry_reason", "");
    envelope.put("payload", payload);
    String text = TestJson.JSON.writeValueAsString(envelope);
    for (Session socket : sockets) {
      socket.sendText(text, org.eclipse.jetty.websocket.api.Callback.NOOP);
    }
    return id;
  }

  /** A message event, as Slack's Events API wraps it. */
  static Map<String, Object> message(
      String eventId, String channel, String user, String text, String ts, String threadTs) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("type", "message");
    event.put("channel", channel);
    event.put("user", user);
    event.put("text", text);
    event.put("ts", ts);
    if (threadTs != null) {
      event.put("thread_ts", threadTs);
    }
    event.put("team", TEAM);
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("token", "verification-token");
    payload.put("team_id", TEAM);
    payload.put("api_app_id", "A0APP");
    payload.put("event", event);
    payload.put("type", "event_callback");
    payload.put("event_id", eventId);
    payload.put("event_time", 1_700_000_000);
    return payload;
  }

  int connected() {
    return (int) sockets.stream().filter(Session::isOpen).count();
  }

  /** The calls of {@code method}. */
  List<Call> calls(String method) {
    return calls.stream().filter(c -> c.method().equals(method)).toList();
  }

  private interface Route {
    String answer(Request request, String path, byte[] body) throws Exception;
  }

  private static Handler handler(Route route) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        byte[] body;
        try (InputStream in = Content.Source.asInputStream(request)) {
          body = in.readAllBytes();
        }
        String answer = route.answer(request, request.getHttpURI().getPath(), body);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        Content.Sink.write(response, true, answer, callback);
        return true;
      }
    };
  }

  private String upload(Request request, String path, byte[] body) {
    uploads.add(body);
    return "OK - " + body.length;
  }

  private String api(Request request, String path, byte[] body) throws Exception {
    String method = path.substring("/api/".length());
    Map<String, String> form = form(new String(body, StandardCharsets.UTF_8));
    String bearer = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    String expected = method.equals("apps.connections.open") ? APP_TOKEN : BOT_TOKEN;
    boolean authorized = ("Bearer " + expected).equals(bearer) && !failAuth;
    calls.add(new Call(method, form, authorized));
    if (!authorized) {
      return "{\"ok\":false,\"error\":\"invalid_auth\"}";
    }
    switch (method) {
      case "auth.test":
        return "{\"ok\":true,\"url\":\"https://fake.slack.com/\",\"team\":\"Fake\",\"user\":\"cortex\","
            + "\"team_id\":\""
            + TEAM
            + "\",\"user_id\":\""
            + BOT_USER
            + "\",\"bot_id\":\"B0BOT\"}";
      case "apps.connections.open":
        return "{\"ok\":true,\"url\":\"ws://127.0.0.1:" + port() + "/socket\"}";
      case "chat.postMessage":
        return "{\"ok\":true,\"channel\":\""
            + form.get("channel")
            + "\",\"ts\":\"1700000001."
            + String.format("%06d", ids.incrementAndGet())
            + "\"}";
      case "files.getUploadURLExternal":
        {
          String id = "F0FILE" + ids.incrementAndGet();
          return "{\"ok\":true,\"upload_url\":\"http://127.0.0.1:"
              + port()
              + "/upload/"
              + id
              + "\",\"file_id\":\""
              + id
              + "\"}";
        }
      case "files.completeUploadExternal":
        {
          var files = TestJson.JSON.readTree(form.getOrDefault("files", "[]"));
          StringBuilder answer = new StringBuilder("{\"ok\":true,\"files\":[");
          for (int i = 0; i < files.size(); i++) {
            answer
                .append(i == 0 ? "" : ",")
                .append("{\"id\":\"")
                .append(files.get(i).path("id").asString())
                .append("\",\"title\":")
                .append(TestJson.JSON.writeValueAsString(files.get(i).path("title").asString("")))
                .append("}");
          }
          return answer.append("]}").toString();
        }
      default:
        return "{\"ok\":false,\"error\":\"unknown_method\"}";
    }
  }

  private static Map<String, String> form(String body) {
    Map<String, String> form = new LinkedHashMap<>();
    if (body.isBlank() || body.startsWith("{")) {
      return form;
    }
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      form.put(key, value);
    }
    return form;
  }

  /** One Socket Mode connection: hello on open, acknowledgements recorded. */
  public static final class Socket implements Session.Listener.AutoDemanding {
    private final FakeSlack slack;
    private Session session;

    Socket(FakeSlack slack) {
      this.slack = slack;
    }

    @Override
    public void onWebSocketOpen(Session opened) {
      slack.opens.incrementAndGet();
      session = opened;
      slack.sockets.add(opened);
      opened.sendText(
          "{\"type\":\"hello\",\"num_connections\":1,\"debug_info\":{\"host\":\"fake\"},"
              + "\"connection_info\":{\"app_id\":\"A0APP\"}}",
          org.eclipse.jetty.websocket.api.Callback.NOOP);
    }

    @Override
    public void onWebSocketText(String text) {
      try {
        var node = TestJson.JSON.readTree(text);
        if (node.has("envelope_id")) {
          slack.acks.add(node.path("envelope_id").asString());
        }
      } catch (RuntimeException e) {
        // not JSON: ignored
      }
    }

    @Override
    public void onWebSocketClose(
        int status, String reason, org.eclipse.jetty.websocket.api.Callback callback) {
      slack.sockets.remove(session);
      callback.succeed();
    }
  }

  @Override
  public void close() throws Exception {
    jetty.stop();
  }
}
