package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.Slack;
import dev.cortex.server.channels.slack.SlackChannel;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
  private final DeviceFileReader devices;
  private final Path scratch;
  private final JsonRoutes routes;

  SlackRoutes(
      SessionService sessions,
      Supplier<SlackChannel> slack,
      DeviceFileReader devices,
      Path scratch,
      String version) {
    this.sessions = sessions;
    this.slack = slack;
    this.devices = devices;
    this.scratch = scratch;
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

  /** The largest request of Slack's taken. */
  static final int MAX_EVENT_BYTES = 1024 * 1024;

  /**
   * The Events API's route: Slack's signature is its guard (its caller has no webhook token); a
   * server without the Events API answers 404.
   */
  Handler events() {
    return new Handler.Abstract() {
      @Override
      public boolean handle(
          org.eclipse.jetty.server.Request request,
          org.eclipse.jetty.server.Response response,
          org.eclipse.jetty.util.Callback callback)
          throws Exception {
        SlackChannel channel = slack.get();
        if (!"POST".equals(request.getMethod()) || channel == null) {
          dev.cortex.http.JsonBodies.error(
              response, callback, 404, "NOT_FOUND", "Slack's Events API is not enabled here.");
          return true;
        }
        byte[] body = dev.cortex.http.JsonBodies.read(request, MAX_EVENT_BYTES);
        if (body == null) {
          dev.cortex.http.JsonBodies.error(
              response, callback, 413, "INVALID_ARGUMENT", "The request body is too large.");
          return true;
        }
        var headers = request.getHeaders();
        SlackChannel.HttpAnswer answer =
            channel.http(
                body,
                headers.get(org.eclipse.jetty.http.HttpHeader.CONTENT_TYPE),
                headers.get("X-Slack-Request-Timestamp"),
                headers.get("X-Slack-Signature"));
        response.setStatus(answer.status());
        response
            .getHeaders()
            .put(org.eclipse.jetty.http.HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        org.eclipse.jetty.io.Content.Sink.write(response, true, answer.body(), callback);
        return true;
      }
    };
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
    String name =
        request.fileName() != null
            ? request.fileName()
            : String.valueOf(Path.of(request.filePath()).getFileName());
    Path fetched = null;
    try {
      Path file;
      long size;
      if (request.device() == null) {
        // Only files of the session's working directory: never the agent server's own.
        WebFiles.Source source =
            WebFiles.inside(session.workingDirectory(), request.filePath(), Slack.MAX_FILE_BYTES);
        file = source.path();
        size = source.size();
      } else {
        Files.createDirectories(scratch);
        fetched = Files.createTempFile(scratch, "slack-", ".part");
        size = devices.copy(request.device(), request.filePath(), Slack.MAX_FILE_BYTES, fetched);
        file = fetched;
      }
      SlackChannel.Sent sent =
          channel.sendFile(session, file, name, request.title(), request.comment());
      String[] where = session.channel().substring(SlackChannel.KIND.length() + 1).split("/", 2);
      return new Slack.Sent(
          sent.fileId(), where[0], where.length > 1 ? where[1] : null, name, size);
    } catch (SlackChannel.SendFailure e) {
      throw new CodedException(Slack.Codes.SLACK_FAILED, e.getMessage());
    } catch (IOException e) {
      throw new CodedException(ErrorCodes.INTERNAL, "The file could not be staged for Slack.");
    } finally {
      if (fetched != null) {
        try {
          Files.deleteIfExists(fetched);
        } catch (IOException e) {
          // the scratch folder is swept with the server's temporary files
        }
      }
    }
  }
}
