package dev.cortex.server.channels.feishu;

import dev.cortex.base.Json;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.server.channels.ChatText;
import dev.cortex.server.channels.FrontDoor;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.store.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Feishu (or Lark) as a front door of the agent server, through its event subscription's request
 * URL: Feishu posts each event to the webhook's {@code /feishu/events}, taken only when it is
 * Feishu's ({@link FeishuCallbacks}). A text message in an allowed chat goes into the inbox of the
 * session on {@code feishu:<chat>}, made on the first message, exactly once per message (its id is
 * the inbox's key, so Feishu's retry of an event is not a second message). When a turn of such a
 * session ends, its last reply is posted back into the chat; questions and plans come as cards
 * whose buttons answer them. Nothing here stops the agent server: bad credentials or an outage are
 * logged, and tried again.
 */
public final class FeishuChannel implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FeishuChannel.class);

  /** The channel kind of Feishu's sessions. */
  public static final String KIND = "feishu";

  /** The longest text message posted: far under Feishu's limit, easy to read. */
  public static final int MESSAGE_LIMIT = 4000;

  /** The mention placeholders Feishu puts in a message's text ({@code @_user_1}). */
  private static final Pattern MENTION = Pattern.compile("@_user_\\d+");

  private final FeishuSettings settings;
  private final FeishuApi api;
  private final FeishuCallbacks callbacks;
  private final FrontDoor door;
  private final Clock clock;
  private final List<String> secrets;
  private volatile String botOpenId;
  private volatile boolean closed;

  /**
   * @param secrets the credentials, kept out of every message this writes
   */
  public FeishuChannel(
      FeishuSettings settings,
      FeishuApi api,
      String verificationToken,
      String encryptKey,
      FrontDoor door,
      Clock clock,
      List<String> secrets) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.api = Objects.requireNonNull(api, "api");
    this.callbacks = new FeishuCallbacks(verificationToken, encryptKey);
    this.door = Objects.requireNonNull(door, "door");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.secrets = List.copyOf(secrets);
  }

  /** Starts following the sessions and learning the bot's identity (in the background, retried). */
  public synchronized void start() {
    if (settings.chats().isEmpty() && settings.tenants().isEmpty()) {
      log.warn("[feishu] names no chats and no tenants: no Feishu message will start a session");
    }
    if (!callbacks.encrypted()) {
      log.warn(
          "Feishu: no FEISHU_ENCRYPT_KEY: events are checked by the verification token alone,"
              + " which every request carries in its body; set an encrypt key in the event"
              + " subscription and here");
    }
    door.start(this::postReply);
    door.keepTrying("Feishu: the app could not sign in", this::signIn, e -> safe(e.getMessage()));
  }

  private void signIn() throws FeishuApi.Failure {
    FeishuApi.Bot bot = api.bot();
    botOpenId = bot.openId();
    log.info("Feishu: the app's bot is {}; events come to /feishu/events", bot.name());
  }

  /** An answer to Feishu's HTTP request: its status and JSON body. */
  public record HttpAnswer(int status, String body) {}

  /**
   * A request of the event subscription: taken only when it is Feishu's. An event taken (or not for
   * a session) is answered 200; one that cannot be taken now 503, so that Feishu sends it again; a
   * request that is not Feishu's 401.
   */
  public HttpAnswer http(byte[] body, String timestamp, String nonce, String signature) {
    JsonNode payload;
    try {
      payload = callbacks.open(body, timestamp, nonce, signature, clock.instant());
    } catch (FeishuCallbacks.Refused e) {
      log.warn("Feishu: a request to /feishu/events was refused: {}", e.getMessage());
      return new HttpAnswer(401, "{\"error\":\"the request is not Feishu's\"}");
    }
    if ("url_verification".equals(payload.path("type").asString(""))) {
      return new HttpAnswer(
          200, Json.write(Map.of("challenge", payload.path("challenge").asString(""))));
    }
    if (!door.started() || botOpenId == null) {
      // Not ready yet: Feishu sends it again shortly.
      return new HttpAnswer(503, "{}");
    }
    String type = payload.path("header").path("event_type").asString("");
    try {
      switch (type) {
        case "im.message.receive_v1":
          return take(payload.path("event"))
              ? new HttpAnswer(200, "{}")
              : new HttpAnswer(503, "{}");
        case "card.action.trigger":
          JsonNode event = payload.path("event");
          return click(
              event.path("operator").path("open_id").asString(null),
              event
                  .path("operator")
                  .path("tenant_key")
                  .asString(payload.path("header").path("tenant_key").asString(null)),
              event.path("context").path("open_chat_id").asString(null),
              event.path("action").path("value"));
        default:
          return new HttpAnswer(200, "{}");
      }
    } catch (RuntimeException e) {
      log.warn("Feishu: an event could not be taken now; Feishu will send it again", e);
      return new HttpAnswer(503, "{}");
    }
  }

  /**
   * Takes one {@code im.message.receive_v1} event: whether it is done with (taken, or not for a
   * session); false when it should come again (the session could not take it now).
   */
  boolean take(JsonNode event) {
    JsonNode sender = event.path("sender");
    JsonNode message = event.path("message");
    if (!"user".equals(sender.path("sender_type").asString(""))) {
      return true;
    }
    String user = sender.path("sender_id").path("open_id").asString(null);
    String tenant = sender.path("tenant_key").asString(null);
    String chat = message.path("chat_id").asString(null);
    String id = message.path("message_id").asString(null);
    if (user == null || chat == null || id == null || user.equals(botOpenId)) {
      return true;
    }
    if (!settings.allows(tenant, chat, user)) {
      log.info("Feishu: a message in {} from {} is not allowed by [feishu]; ignored", chat, user);
      return true;
    }
    if (!"text".equals(message.path("message_type").asString(""))) {
      log.info(
          "Feishu: a {} message in {} is not text; only text starts turns",
          message.path("message_type").asString("?"),
          chat);
      return true;
    }
    String text = text(message);
    if (text.isEmpty()) {
      return true;
    }
    String where = KIND + ":" + chat;
    try {
      Session session = door.sessionOn(where, KIND + "-" + chat);
      door.sessions().wake(session.id(), text, KIND, KIND + ":" + chat + ":" + id);
      return true;
    } catch (SessionException e) {
      log.warn(
          "Feishu: a message for {} could not be taken now ({}); Feishu will send it again",
          where,
          e.getMessage());
      return false;
    }
  }

  /**
   * The text of a text message: the bot's leading mention dropped, every other mention as
   * {@code @name}.
   */
  private String text(JsonNode message) {
    String text;
    try {
      text =
          Json.mapper().readTree(message.path("content").asString("{}")).path("text").asString("");
    } catch (JacksonException e) {
      return "";
    }
    Map<String, JsonNode> mentions = new java.util.HashMap<>();
    for (JsonNode mention : message.path("mentions")) {
      mentions.put(mention.path("key").asString(""), mention);
    }
    text = text.strip();
    Matcher leading = MENTION.matcher(text);
    if (leading.lookingAt()) {
      JsonNode mention = mentions.get(leading.group());
      if (mention != null && botOpenId.equals(mention.path("id").path("open_id").asString(""))) {
        text = text.substring(leading.end()).strip();
      }
    }
    StringBuilder out = new StringBuilder();
    Matcher any = MENTION.matcher(text);
    while (any.find()) {
      JsonNode mention = mentions.get(any.group());
      String name = mention == null ? any.group() : "@" + mention.path("name").asString("");
      any.appendReplacement(out, Matcher.quoteReplacement(name));
    }
    any.appendTail(out);
    return out.toString().strip();
  }

  /** A click on a card's button: answered with a toast Feishu shows the person. */
  private HttpAnswer click(String user, String tenant, String chat, JsonNode value) {
    if (!settings.allows(tenant, chat, user)) {
      log.info("Feishu: a click in {} by {} is not allowed by [feishu]; ignored", chat, user);
      return toast("error", "You may not answer here.");
    }
    FeishuCards.Action action = FeishuCards.action(value);
    if (action == null) {
      return new HttpAnswer(200, "{}");
    }
    Interactions.View view = door.openOn(action.interaction(), chat);
    if (view == null) {
      return toast("info", "This is answered already, or no longer asked.");
    }
    String by = KIND + ":" + user;
    String refusal =
        action.kind().equals(FeishuCards.ANSWER)
            ? door.choose(view, action.question(), action.option(), by)
            : door.decide(view, action.kind().equals(FeishuCards.APPROVE), "Feishu", "chat", by);
    if (refusal == FrontDoor.WAITING) {
      return toast("info", "Noted: choose an answer to the other questions too.");
    }
    if (refusal != null) {
      log.info("Feishu: the answer to {} was not taken: {}", view.id(), refusal);
      return toast("error", refusal);
    }
    return toast("success", "Thank you: taken.");
  }

  private static HttpAnswer toast(String type, String content) {
    return new HttpAnswer(
        200, Json.write(Map.of("toast", Map.of("type", type, "content", content))));
  }

  private void postReply(Session session, String executionId, String reply) {
    String chat = chat(session.channel());
    if (chat == null) {
      return;
    }
    List<String> parts = ChatText.split(reply, MESSAGE_LIMIT);
    for (int i = 0; i < parts.size(); i++) {
      // The same reply posted twice (a retry) is one message to Feishu.
      post(chat, "text", Map.of("text", parts.get(i)), uuid(executionId + "/" + i));
    }
  }

  /** How often a message that did not reach Feishu is tried, and the first wait between. */
  static final int SEND_ATTEMPTS = 3;

  static final Duration SEND_RETRY = Duration.ofSeconds(1);

  /**
   * Sends a message; one that did not reach Feishu (no answer, or not Feishu's) is tried again
   * twice, after 1 and 4 seconds, safely since its uuid makes a repeat the same message. A refusal
   * by Feishu is logged and the message dropped.
   */
  private void post(String chat, String type, Object content, String uuid) {
    long wait = SEND_RETRY.toMillis();
    for (int attempt = 1; ; attempt++) {
      try {
        api.send(chat, type, content, uuid);
        return;
      } catch (FeishuApi.Failure e) {
        if (e.code() != -1 || attempt >= SEND_ATTEMPTS || door.closed()) {
          log.warn("Feishu: a message to {} was not sent: {}", chat, safe(e.getMessage()));
          return;
        }
      }
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      wait *= 4;
    }
  }

  /**
   * Posts a question or plan of a Feishu session into its chat as a card with buttons; in the
   * background, never failing the caller.
   */
  public void postInteraction(Session session, Interactions.View view) {
    String chat = chat(session.channel());
    if (chat == null || closed) {
      return;
    }
    door.submit(
        () -> {
          try {
            post(chat, "interactive", FeishuCards.card(view), uuid("card/" + view.id()));
          } catch (RuntimeException e) {
            log.warn("Feishu: the card of {} could not be made: {}", view.id(), e.toString());
          }
        });
  }

  /** A file sent to a chat: Feishu's file key and message id. */
  public record Sent(String fileKey, String messageId, String chat) {}

  /** Thrown when a file cannot be sent; the message is safe to show. */
  public static final class SendFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public SendFailure(String message) {
      super(message);
    }
  }

  /**
   * Uploads {@code file} as {@code name} ({@code im/v1/files}) and sends it to {@code chat} as a
   * file message, after {@code title} as a text message when given.
   */
  public Sent sendFile(String chat, Path file, String name, String title) throws SendFailure {
    try {
      String key = api.upload(file, name);
      if (title != null) {
        api.send(chat, "text", Map.of("text", title), null);
      }
      String message = api.send(chat, "file", Map.of("file_key", key), null);
      return new Sent(key, message, chat);
    } catch (FeishuApi.Failure e) {
      throw new SendFailure("Feishu refused the file: " + safe(e.getMessage()) + ".");
    }
  }

  /** The chat of a Feishu session's channel, or null. */
  public static String chat(String sessionChannel) {
    return sessionChannel == null || !sessionChannel.startsWith(KIND + ":")
        ? null
        : sessionChannel.substring(KIND.length() + 1);
  }

  /** Whether files may go to {@code chat} besides a session's own: it is allowed by [feishu]. */
  public boolean chatAllowed(String chat) {
    return settings.chats().contains(chat);
  }

  /** A {@code uuid} of Feishu's (up to 50 characters) that is the same for the same {@code key}. */
  static String uuid(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 24);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java", e);
    }
  }

  /** {@code message} without the credentials, cut to 200 characters. */
  private String safe(String message) {
    String safe = message == null ? "" : message;
    for (String secret : secrets) {
      if (secret != null && secret.length() > 4) {
        safe = safe.replace(secret, "[secret]");
      }
    }
    return safe.length() <= 200 ? safe : safe.substring(0, 200) + "...";
  }

  @Override
  public synchronized void close() {
    closed = true;
    door.close();
  }
}
