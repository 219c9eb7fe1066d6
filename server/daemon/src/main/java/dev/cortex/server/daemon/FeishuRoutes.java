package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.Feishu;
import dev.cortex.server.channels.feishu.FeishuChannel;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;

/**
 * The {@code feishu} group's route on the webhook ({@link Feishu#SEND_FILE}): a file of a Feishu
 * session, read on the server's machine (from the session's working directory) or on a device,
 * uploaded by the Feishu front door and sent to the session's chat, or to another chat that {@code
 * [feishu]} allows. And the event subscription's request URL, {@link #EVENTS}.
 */
final class FeishuRoutes {
  /** Where Feishu's event subscription posts (not behind the webhook's token). */
  static final String EVENTS = "/feishu/events";

  private final SessionService sessions;
  private final Supplier<FeishuChannel> feishu;
  private final ChatFiles files;
  private final JsonRoutes routes;

  FeishuRoutes(
      SessionService sessions, Supplier<FeishuChannel> feishu, ChatFiles files, String version) {
    this.sessions = sessions;
    this.feishu = feishu;
    this.files = files;
    this.routes = new JsonRoutes(version);
  }

  Map<String, Handler> handlers() {
    return Map.of(
        Feishu.SEND_FILE,
        routes.coded(
            Feishu.SendFile.class, Feishu.SendFile.USAGE, this::sendFile, FeishuRoutes::status));
  }

  /** The event subscription's route: Feishu's token and signature are its guard. */
  Handler events() {
    return PlatformEvents.handler(
        "Feishu",
        (body, headers) -> {
          FeishuChannel channel = feishu.get();
          if (channel == null) {
            return null;
          }
          FeishuChannel.HttpAnswer answer =
              channel.http(
                  body,
                  headers.get("X-Lark-Request-Timestamp"),
                  headers.get("X-Lark-Request-Nonce"),
                  headers.get("X-Lark-Signature"));
          return new PlatformEvents.Answer(answer.status(), answer.body());
        });
  }

  static int status(String code) {
    switch (code) {
      case Feishu.Codes.NOT_FEISHU:
        return 409;
      case Feishu.Codes.CHAT_NOT_ALLOWED:
        return 403;
      case Feishu.Codes.FEISHU_FAILED:
        return 502;
      case ErrorCodes.UNAVAILABLE:
        return 503;
      default:
        return 400;
    }
  }

  private Feishu.Sent sendFile(Feishu.SendFile request) {
    Session session;
    try {
      session = sessions.get(request.sessionId());
    } catch (SessionException e) {
      throw new CodedException(e.code(), e.getMessage());
    }
    String own = FeishuChannel.chat(session.channel());
    if (own == null) {
      throw new CodedException(
          Feishu.Codes.NOT_FEISHU,
          "This session is on "
              + session.channel()
              + ", not on a Feishu chat: feishu_send_file sends into the Feishu chat a session"
              + " came from.");
    }
    FeishuChannel channel = feishu.get();
    if (channel == null) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE, "Feishu is not enabled on this agent server ([feishu] enabled).");
    }
    String chat = request.chat() == null ? own : request.chat();
    if (!chat.equals(own) && !channel.chatAllowed(chat)) {
      throw new CodedException(
          Feishu.Codes.CHAT_NOT_ALLOWED,
          "The chat "
              + chat
              + " is neither this session's nor one of [feishu] chats; leave channel out to send"
              + " to this session's chat.");
    }
    try (ChatFiles.Staged file =
        files.stage(
            session,
            request.filePath(),
            request.fileName(),
            request.device(),
            Feishu.MAX_FILE_BYTES,
            "feishu")) {
      FeishuChannel.Sent sent = channel.sendFile(chat, file.path(), file.name(), request.title());
      return new Feishu.Sent(sent.fileKey(), sent.messageId(), chat, file.name(), file.size());
    } catch (FeishuChannel.SendFailure e) {
      throw new CodedException(Feishu.Codes.FEISHU_FAILED, e.getMessage());
    }
  }
}
