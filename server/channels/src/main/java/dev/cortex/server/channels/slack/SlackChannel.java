package dev.cortex.server.channels.slack;

import com.slack.api.Slack;
import com.slack.api.SlackConfig;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import com.slack.api.methods.response.files.FilesUploadV2Response;
import com.slack.api.socket_mode.SocketModeClient;
import com.slack.api.socket_mode.request.EventsApiEnvelope;
import com.slack.api.socket_mode.response.AckResponse;
import dev.cortex.base.Json;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.server.channels.ChatText;
import dev.cortex.server.channels.FrontDoor;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Slack as a front door of the agent server, over Socket Mode: each message in an allowed channel
 * (or thread) goes into the inbox of the session on {@code slack:<channel>} (or {@code
 * slack:<channel>/<thread>}), made on the first message, exactly once per Slack event (its id is
 * the inbox's key, so a redelivery after a restart is not a second message), and only then
 * acknowledged to Slack. When a turn of such a session ends, its last reply is posted back there,
 * cut into messages Slack renders whole. Nothing here stops the agent server: a bad token or an
 * outage is logged, and the connection is tried again.
 */
public final class SlackChannel implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SlackChannel.class);

  /** The channel kind of Slack's sessions. */
  public static final String KIND = "slack";

  /** The longest message posted: well under Slack's limit, easy to read. */
  public static final int MESSAGE_LIMIT = 3500;

  private final SlackSettings settings;
  private final String botToken;
  private final String appToken;
  private final FrontDoor door;
  private final SessionService sessions;
  private final SlackSignature signature;
  private final java.time.Clock clock;
  private final Slack slack;
  private volatile SocketModeClient socket;
  private volatile String botUser;
  private volatile boolean closed;

  /**
   * @param appToken the app-level token of Socket Mode (null in Events API mode)
   * @param signingSecret the signing secret of the Events API (null in Socket Mode)
   */
  public SlackChannel(
      SlackSettings settings,
      String botToken,
      String appToken,
      String signingSecret,
      FrontDoor door,
      java.time.Clock clock) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.door = Objects.requireNonNull(door, "door");
    this.signature = signingSecret == null ? null : new SlackSignature(signingSecret);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.botToken = botToken;
    this.appToken = appToken;
    this.sessions = door.sessions();
    SlackConfig config = new SlackConfig();
    config.setMethodsEndpointUrlPrefix(settings.apiUrl().toString());
    config.setPrettyResponseLoggingEnabled(false);
    // No call of its own to Slack (the metrics ask auth.test for the team), no thread for it.
    config.setStatsEnabled(false);
    this.slack = Slack.getInstance(config);
  }

  /** Starts following the sessions and connecting to Slack (in the background, retried). */
  public synchronized void start() {
    if (settings.workspaces().isEmpty() && settings.channels().isEmpty()) {
      log.warn(
          "[slack] names no workspaces and no channels: no Slack message will start a session");
    }
    door.start(this::postReply);
    door.keepTrying("Slack: could not connect", this::connect, this::safe);
  }

  private void connect() throws IOException {
    AuthTestResponse auth;
    try {
      auth = methods().authTest(r -> r);
    } catch (SlackApiException e) {
      throw new IOException("auth.test answered HTTP " + e.getResponse().code());
    }
    if (!auth.isOk()) {
      throw new IOException("auth.test: " + auth.getError());
    }
    botUser = auth.getUserId();
    if (settings.events()) {
      log.info(
          "Slack: workspace {} as {}; events come to /slack/events", auth.getTeamId(), botUser);
      return;
    }
    SocketModeClient client = slack.socketMode(appToken, SocketModeClient.Backend.JavaWebSocket);
    client.setAutoReconnectEnabled(true);
    client.addEventsApiEnvelopeListener(envelope -> onEnvelope(client, envelope));
    client.addInteractiveEnvelopeListener(
        envelope -> {
          try {
            onClick(Json.mapper().readTree(envelope.getPayload().toString()));
          } catch (RuntimeException e) {
            log.warn("Slack: a button's click could not be read; it is dropped", e);
          }
          client.sendSocketModeResponse(new AckResponse(envelope.getEnvelopeId()));
        });
    client.addWebSocketErrorListener(
        error -> log.warn("Slack: the Socket Mode connection failed: {}", safeThrowable(error)));
    client.addWebSocketCloseListener(
        (code, reason) -> log.info("Slack: the Socket Mode connection closed ({})", code));
    client.connect();
    synchronized (this) {
      if (closed) {
        client.close();
        return;
      }
      socket = client;
    }
    log.info("Slack: connected to workspace {} as {}", auth.getTeamId(), botUser);
  }

  private MethodsClient methods() {
    return slack.methods(botToken);
  }

  /**
   * A Socket Mode envelope: taken into a session, then acknowledged (else Slack sends it again).
   */
  private void onEnvelope(SocketModeClient client, EventsApiEnvelope envelope) {
    boolean done;
    try {
      done = take(Json.mapper().readTree(envelope.getPayload().toString()));
    } catch (RuntimeException e) {
      // Not acknowledged: Slack sends it again (a few times, then gives up).
      log.warn("Slack: an event could not be taken now; Slack will send it again", e);
      done = false;
    }
    if (done) {
      client.sendSocketModeResponse(new AckResponse(envelope.getEnvelopeId()));
    }
  }

  /**
   * Takes one Events API payload: whether it is done with (taken, or not for a session), so that it
   * may be acknowledged; false when it should come again (the session could not take it now).
   */
  boolean take(JsonNode payload) {
    JsonNode event = payload.path("event");
    String type = event.path("type").asString("");
    if (!type.equals("message") && !type.equals("app_mention")) {
      return true;
    }
    String subtype = event.path("subtype").asString(null);
    if ((subtype != null && !TAKEN_SUBTYPES.contains(subtype)) || event.has("bot_id")) {
      return true;
    }
    String user = event.path("user").asString(null);
    String channel = event.path("channel").asString(null);
    String ts = event.path("ts").asString(null);
    // A person of another workspace (Slack Connect) counts by their own workspace.
    String team =
        event
            .path("user_team")
            .asString(payload.path("team_id").asString(event.path("team").asString(null)));
    if (user == null || channel == null || ts == null || user.equals(botUser)) {
      return true;
    }
    if (!settings.allows(team, channel, user)) {
      log.info("Slack: a message in {} from {} is not allowed by [slack]; ignored", channel, user);
      return true;
    }
    String text = event.path("text").asString("");
    String bot = botUser;
    if (bot != null && text.startsWith("<@" + bot + ">")) {
      text = text.substring(bot.length() + 3);
    }
    text = text.strip();
    if (text.isEmpty()) {
      return true;
    }
    String thread = event.path("thread_ts").asString(null);
    String where = KIND + ":" + channel + (thread == null ? "" : "/" + thread);
    try {
      Session session =
          door.sessionOn(where, KIND + "-" + channel + (thread == null ? "" : "-" + thread));
      // Keyed by the message itself: its message event and its app_mention are one message.
      sessions.wake(session.id(), text, KIND, KIND + ":" + channel + ":" + ts);
      return true;
    } catch (SessionException e) {
      log.warn(
          "Slack: a message for {} could not be taken now ({}); Slack will send it again",
          where,
          e.getMessage());
      return false;
    }
  }

  /** Message subtypes that are a person's message all the same. */
  static final java.util.Set<String> TAKEN_SUBTYPES =
      java.util.Set.of("thread_broadcast", "file_share");

  private void postReply(Session session, String executionId, String reply) {
    Where where = Where.of(session.channel());
    if (where == null) {
      return;
    }
    for (String part : ChatText.split(reply, MESSAGE_LIMIT)) {
      post(where, part);
    }
  }

  private void post(Where where, String text) {
    try {
      ChatPostMessageResponse response =
          methods()
              .chatPostMessage(r -> r.channel(where.channel()).threadTs(where.thread()).text(text));
      if (!response.isOk()) {
        log.warn("Slack: chat.postMessage to {}: {}", where.channel(), response.getError());
      }
    } catch (IOException | SlackApiException e) {
      log.warn("Slack: chat.postMessage to {} failed: {}", where.channel(), safe(e));
    }
  }

  /** An answer to Slack's HTTP request: its status and JSON body. */
  public record HttpAnswer(int status, String body) {}

  /**
   * A request of the Events API (events as JSON, clicks as the form field {@code payload}): taken
   * only when Slack's signature holds. An event taken (or not for a session) is answered 200; one
   * the session could not take now 503, so that Slack sends it again; a bad signature 401.
   */
  public HttpAnswer http(byte[] body, String contentType, String timestamp, String signed) {
    if (signature == null) {
      return new HttpAnswer(404, "{\"error\":\"Slack's Events API is not enabled here\"}");
    }
    if (!door.started()) {
      // Not started yet: Slack sends it again shortly.
      return new HttpAnswer(503, "{}");
    }
    String refusal = signature.refusal(body, timestamp, signed, clock.instant());
    if (refusal != null) {
      log.warn("Slack: a request to /slack/events was refused: {}", refusal);
      return new HttpAnswer(401, "{\"error\":\"the request is not signed by Slack\"}");
    }
    String text = new String(body, java.nio.charset.StandardCharsets.UTF_8);
    JsonNode payload;
    try {
      if (contentType != null && contentType.startsWith("application/x-www-form-urlencoded")) {
        String form = null;
        for (String pair : text.split("&")) {
          if (pair.startsWith("payload=")) {
            form =
                java.net.URLDecoder.decode(
                    pair.substring("payload=".length()), java.nio.charset.StandardCharsets.UTF_8);
          }
        }
        if (form == null) {
          return new HttpAnswer(400, "{\"error\":\"no payload\"}");
        }
        onClick(Json.mapper().readTree(form));
        return new HttpAnswer(200, "{}");
      }
      payload = Json.mapper().readTree(text);
    } catch (RuntimeException e) {
      return new HttpAnswer(400, "{\"error\":\"the body is not what Slack sends\"}");
    }
    switch (payload.path("type").asString("")) {
      case "url_verification":
        return new HttpAnswer(
            200, Json.write(java.util.Map.of("challenge", payload.path("challenge").asString(""))));
      case "event_callback":
        return take(payload) ? new HttpAnswer(200, "{}") : new HttpAnswer(503, "{}");
      default:
        return new HttpAnswer(200, "{}");
    }
  }

  /**
   * Posts a question or plan of a Slack session into its channel (and thread) as a message with
   * buttons; in the background, never failing the caller.
   */
  public void postInteraction(Session session, Interactions.View view) {
    Where where = Where.of(session.channel());
    if (where == null || closed) {
      return;
    }
    door.submit(
        () -> {
          try {
            ChatPostMessageResponse response =
                methods()
                    .chatPostMessage(
                        r ->
                            r.channel(where.channel())
                                .threadTs(where.thread())
                                .text(SlackCards.fallback(view))
                                .blocksAsString(Json.write(SlackCards.blocks(view))));
            if (!response.isOk()) {
              log.warn("Slack: the card of {} was refused: {}", view.id(), response.getError());
            }
          } catch (IOException | SlackApiException | RuntimeException e) {
            log.warn("Slack: the card of {} could not be posted: {}", view.id(), safe(e));
          }
        });
  }

  /** A {@code block_actions} payload: a person clicked one of the buttons of a card. */
  void onClick(JsonNode payload) {
    if (!payload.path("type").asString("").equals("block_actions")) {
      return;
    }
    String user = payload.path("user").path("id").asString(null);
    String team = payload.path("team").path("id").asString(null);
    String channel = payload.path("channel").path("id").asString(null);
    if (!settings.allows(team, channel, user)) {
      log.info("Slack: a click in {} by {} is not allowed by [slack]; ignored", channel, user);
      return;
    }
    for (JsonNode clicked : payload.path("actions")) {
      SlackCards.Action action =
          SlackCards.action(
              clicked.path("action_id").asString(""), clicked.path("value").asString(null));
      if (action != null) {
        take(action, channel, "slack:" + user);
      }
    }
  }

  private void take(SlackCards.Action action, String channel, String by) {
    Interactions.View view = door.openOn(action.interaction(), channel);
    if (view == null) {
      return;
    }
    String refusal =
        action.kind().equals(SlackCards.ANSWER)
            ? door.choose(view, action.question(), action.option(), by)
            : door.decide(view, action.kind().equals(SlackCards.APPROVE), "Slack", "thread", by);
    if (refusal != null && refusal != FrontDoor.WAITING) {
      log.info("Slack: the answer to {} was not taken: {}", view.id(), refusal);
    }
  }

  /** A file sent to the channel of a Slack session, through Slack's two-step upload. */
  public record Sent(String fileId, String channel) {}

  /** Thrown when a file cannot be sent; the message is safe to show. */
  public static final class SendFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public SendFailure(String message) {
      super(message);
    }
  }

  /**
   * Uploads {@code file} to the channel (and thread) of {@code session}, with Slack's current
   * upload ({@code files.getUploadURLExternal}, the bytes to the URL it gives, then {@code
   * files.completeUploadExternal}).
   */
  public Sent sendFile(Session session, Path file, String fileName, String title, String comment)
      throws SendFailure {
    Where where = Where.of(session.channel());
    if (where == null) {
      throw new SendFailure("The session is not on a Slack channel.");
    }
    try {
      FilesUploadV2Response response =
          methods()
              .filesUploadV2(
                  r ->
                      r.channel(where.channel())
                          .threadTs(where.thread())
                          .file(file.toFile())
                          .filename(fileName)
                          .title(title)
                          .initialComment(comment)
                          .requestFileInfo(false));
      if (!response.isOk()) {
        throw new SendFailure("Slack refused the file: " + response.getError() + ".");
      }
      String id =
          response.getFiles() == null || response.getFiles().isEmpty()
              ? null
              : response.getFiles().get(0).getId();
      return new Sent(id, where.channel());
    } catch (IOException | SlackApiException e) {
      throw new SendFailure("Slack could not be reached to send the file: " + safe(e) + ".");
    } catch (RuntimeException e) {
      throw new SendFailure("Slack refused the file: " + safe(e) + ".");
    }
  }

  /** A Slack session's channel and thread (null: the channel itself). */
  record Where(String channel, String thread) {
    static Where of(String sessionChannel) {
      if (sessionChannel == null || !sessionChannel.startsWith(KIND + ":")) {
        return null;
      }
      String rest = sessionChannel.substring(KIND.length() + 1);
      int slash = rest.indexOf('/');
      return slash < 0
          ? new Where(rest, null)
          : new Where(rest.substring(0, slash), rest.substring(slash + 1));
    }
  }

  private String safeThrowable(Throwable e) {
    return e instanceof Exception ex ? safe(ex) : e.getClass().getSimpleName();
  }

  /** What an exception may say: its class and a message without tokens. */
  private String safe(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    for (String secret : List.of(String.valueOf(botToken), String.valueOf(appToken))) {
      if (secret.length() > 4) {
        message = message.replace(secret, "[token]");
      }
    }
    return message.length() <= 200 ? message : message.substring(0, 200) + "...";
  }

  @Override
  public synchronized void close() {
    closed = true;
    SocketModeClient client = socket;
    if (client != null) {
      try {
        client.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
    door.close();
  }
}
