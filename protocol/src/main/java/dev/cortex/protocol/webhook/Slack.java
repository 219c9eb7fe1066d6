package dev.cortex.protocol.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Sessions;

/**
 * The {@code slack} group's route on the webhook: a file from a Slack session's agent, uploaded by
 * the agent server (which holds the bot token) to the session's channel and thread. Requests are
 * strict; one that breaks a rule cannot be built ({@link Sessions.BadRequest}, answered {@code
 * INVALID_ARGUMENT}).
 */
public final class Slack {
  private Slack() {}

  public static final String SEND_FILE = "/webhook/slack/send-file";

  /** The largest file sent: Slack takes up to 1 GB, a chat needs far less. */
  public static final long MAX_FILE_BYTES = 100L * 1024 * 1024;

  public static final int MAX_TITLE = 255;
  public static final int MAX_COMMENT = 4_000;

  /** The codes of the route besides {@code INVALID_ARGUMENT}. */
  public static final class Codes {
    private Codes() {}

    /** The calling session is not on a Slack channel. */
    public static final String NOT_SLACK = "NOT_SLACK";

    /** Slack is not connected, or refused the file. */
    public static final String SLACK_FAILED = "SLACK_FAILED";
  }

  /** A file for the session's Slack channel; read on {@code device} when given. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SendFile(
      String sessionId,
      String filePath,
      String fileName,
      String title,
      String comment,
      String device) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"file_path\": PATH, \"file_name\"?, \"title\"?, \"comment\"?,"
            + " \"device\"?}.";

    public SendFile {
      ChatFile.check(sessionId, filePath, fileName, device, USAGE);
      ChatFile.text("title", title, MAX_TITLE, false, USAGE);
      ChatFile.text("comment", comment, MAX_COMMENT, false, USAGE);
    }
  }

  /** What was sent: Slack's file id, the channel (and thread), the name and size. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Sent(String fileId, String channel, String thread, String name, long size) {}
}
