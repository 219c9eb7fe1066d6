package dev.cortex.protocol.webhook;

import dev.cortex.protocol.session.Sessions;

/** The rules every chat platform's file request shares: its session, path, name and device. */
public final class ChatFile {
  private ChatFile() {}

  public static final int MAX_PATH = 4_096;
  public static final int MAX_FILE_NAME = 255;
  public static final int MAX_DEVICE = 128;

  static void check(
      String sessionId, String filePath, String fileName, String device, String usage) {
    if (sessionId == null || sessionId.isBlank() || sessionId.length() > 200) {
      throw new Sessions.BadRequest("session_id names the calling session.");
    }
    text("file_path", filePath, MAX_PATH, true, usage);
    text("file_name", fileName, MAX_FILE_NAME, false, usage);
    text("device", device, MAX_DEVICE, false, usage);
    if (fileName != null && (fileName.contains("/") || fileName.contains("\\"))) {
      throw new Sessions.BadRequest("file_name is a name, without folders.");
    }
  }

  static void text(String field, String value, int max, boolean required, String usage) {
    if (value == null) {
      if (required) {
        throw new Sessions.BadRequest(field + " is required. " + usage);
      }
      return;
    }
    if (value.isBlank() || value.length() > max) {
      throw new Sessions.BadRequest(field + " is 1 to " + max + " characters.");
    }
  }
}
