package dev.cortex.protocol.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Sessions;

/**
 * The {@code feishu} group's route on the webhook: a file from a Feishu session's agent, uploaded
 * by the agent server (which holds the app's credentials) and sent to the session's chat, or to
 * another chat that {@code [feishu]} allows. Requests are strict; one that breaks a rule cannot be
 * built ({@link Sessions.BadRequest}, answered {@code INVALID_ARGUMENT}).
 */
public final class Feishu {
  private Feishu() {}

  public static final String SEND_FILE = "/webhook/feishu/send-file";

  /** The largest file sent: what Feishu's {@code im/v1/files} takes. */
  public static final long MAX_FILE_BYTES = 30L * 1024 * 1024;

  public static final int MAX_TITLE = 255;
  public static final int MAX_CHANNEL = 128;

  /** The codes of the route besides {@code INVALID_ARGUMENT}. */
  public static final class Codes {
    private Codes() {}

    /** The calling session is not on a Feishu chat. */
    public static final String NOT_FEISHU = "NOT_FEISHU";

    /** The chat named is neither the session's nor one that {@code [feishu]} allows. */
    public static final String CHAT_NOT_ALLOWED = "CHAT_NOT_ALLOWED";

    /** Feishu is not reachable, or refused the file. */
    public static final String FEISHU_FAILED = "FEISHU_FAILED";
  }

  /**
   * A file for a Feishu chat: the session's own, or {@code channel} ({@code oc_…} or {@code
   * feishu:oc_…}); read on {@code device} when given.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SendFile(
      String sessionId,
      String filePath,
      String fileName,
      String title,
      String channel,
      String device) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"file_path\": PATH, \"file_name\"?, \"title\"?, \"channel\"?,"
            + " \"device\"?}.";

    public SendFile {
      ChatFile.check(sessionId, filePath, fileName, device, USAGE);
      ChatFile.text("title", title, MAX_TITLE, false, USAGE);
      ChatFile.text("channel", channel, MAX_CHANNEL, false, USAGE);
      if (channel != null && !channel.matches("(feishu:)?[A-Za-z0-9_-]{2,64}")) {
        throw new Sessions.BadRequest("channel is a Feishu chat id (oc_...), or feishu: and one.");
      }
    }

    /** The chat named by {@code channel}, without its {@code feishu:}; null when none is. */
    public String chat() {
      return channel == null
          ? null
          : channel.startsWith("feishu:") ? channel.substring(7) : channel;
    }
  }

  /** What was sent: Feishu's file key and message id, the chat, the name and size. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Sent(String fileKey, String messageId, String chat, String name, long size) {}
}
