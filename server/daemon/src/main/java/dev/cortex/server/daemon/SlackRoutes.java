package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.Slack;
import dev.cortex.server.channels.slack.SlackChannel;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;

/**
 * The {@code slack} group's route on the webhook ({@link Slack#SEND_FILE}): a file of a Slack
 * session, read on the server's machine (from the session's working directory) or on a device,
 * uploaded by the Slack front door to the session's channel and thread.
 */
final class SlackRoutes {
  private final SessionService sessions;
  private final Supplier<SlackChannel> slack;
  private final ChatFiles files;
  private final JsonRoutes routes;

  SlackRoutes(
      SessionService sessions, Supplier<SlackChannel> slack, ChatFiles files, String version) {
    this.sessions = sessions;
    this.slack = slack;
    this.files = files;
    this.routes = new JsonRoutes(version);
  }

  Map<String, Handler> handlers() {
    return Map.of(
        Slack.SEND_FILE,
        routes.coded(
            Slack.SendFile.class, Slack.SendFile.USAGE, this::sendFile, SlackRoutes::status));
  }

  /** Where Slack's Events API posts, signed (so not behind the webhook's token). */
  static final String EVENTS = "/slack/events";

  /**
   * The Events API's route: Slack's signature is its guard (its caller has no webhook token); a
   * server without the Events API answers 404.
   */
  Handler events() {
    return PlatformEvents.handler(
        "Slack",
        (body, headers) -> {
          SlackChannel channel = slack.get();
          if (channel == null) {
            return null;
          }
          SlackChannel.HttpAnswer answer =
              channel.http(
                  body,
                  headers.get(org.eclipse.jetty.http.HttpHeader.CONTENT_TYPE),
                  headers.get("X-Slack-Request-Timestamp"),
                  headers.get("X-Slack-Signature"));
          return new PlatformEvents.Answer(answer.status(), answer.body());
        });
  }

  static int status(String code) {
    switch (code) {
      case Slack.Codes.NOT_SLACK:
        return 409;
      case Slack.Codes.SLACK_FAILED:
        return 502;
      case ErrorCodes.UNAVAILABLE:
        return 503;
      default:
        return 400;
    }
  }

  private Slack.Sent sendFile(Slack.SendFile request) {
    Session session;
    try {
      session = sessions.get(request.sessionId());
    } catch (SessionException e) {
      throw new CodedException(e.code(), e.getMessage());
    }
    if (session.channel() == null || !session.channel().startsWith(SlackChannel.KIND + ":")) {
      throw new CodedException(
          Slack.Codes.NOT_SLACK,
          "This session is on "
              + session.channel()
              + ", not on a Slack channel: slack_send_file"
              + " posts into the Slack channel a session came from.");
    }
    SlackChannel channel = slack.get();
    if (channel == null) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE, "Slack is not enabled on this agent server ([slack] enabled).");
    }
    try (ChatFiles.Staged file =
        files.stage(
            session,
            request.filePath(),
            request.fileName(),
            request.device(),
            Slack.MAX_FILE_BYTES,
            "slack")) {
      SlackChannel.Sent sent =
          channel.sendFile(session, file.path(), file.name(), request.title(), request.comment());
      String[] where = session.channel().substring(SlackChannel.KIND.length() + 1).split("/", 2);
      return new Slack.Sent(
          sent.fileId(), where[0], where.length > 1 ? where[1] : null, file.name(), file.size());
    } catch (SlackChannel.SendFailure e) {
      throw new CodedException(Slack.Codes.SLACK_FAILED, e.getMessage());
    }
  }
}
