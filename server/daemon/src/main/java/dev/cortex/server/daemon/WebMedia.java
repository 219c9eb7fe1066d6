package dev.cortex.server.daemon;

import java.util.Locale;
import java.util.Map;

/**
 * The media type of a delivered file, from its first bytes (the signatures of common images,
 * videos, audio, PDF and archives) and, when they say nothing, its name's extension; and how the
 * workbench previews it ({@code image}, {@code video} or {@code none}). A name never makes a file
 * run: {@code text/html} and other script-capable types are served as text (see {@link #servedAs}).
 */
final class WebMedia {
  private WebMedia() {}

  private static final Map<String, String> BY_EXTENSION =
      Map.ofEntries(
          Map.entry("txt", "text/plain"),
          Map.entry("md", "text/markdown"),
          Map.entry("csv", "text/csv"),
          Map.entry("json", "application/json"),
          Map.entry("html", "text/html"),
          Map.entry("htm", "text/html"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("xml", "application/xml"),
          Map.entry("js", "text/javascript"),
          Map.entry("css", "text/css"),
          Map.entry("log", "text/plain"),
          Map.entry("yaml", "application/yaml"),
          Map.entry("yml", "application/yaml"),
          Map.entry("toml", "application/toml"),
          Map.entry("java", "text/plain"),
          Map.entry("py", "text/plain"),
          Map.entry("png", "image/png"),
          Map.entry("jpg", "image/jpeg"),
          Map.entry("jpeg", "image/jpeg"),
          Map.entry("gif", "image/gif"),
          Map.entry("webp", "image/webp"),
          Map.entry("mp4", "video/mp4"),
          Map.entry("webm", "video/webm"),
          Map.entry("pdf", "application/pdf"),
          Map.entry("zip", "application/zip"));

  /** The media type of a file that starts with {@code head} and is named {@code name}. */
  static String type(byte[] head, String name) {
    String sniffed = sniff(head);
    if (sniffed != null) {
      return sniffed;
    }
    String byName = BY_EXTENSION.get(extension(name));
    if (byName != null && !byName.startsWith("image/") && !byName.startsWith("video/")) {
      // An image or video is believed by its bytes only; a text type by its name.
      return byName;
    }
    return text(head) ? "text/plain" : "application/octet-stream";
  }

  /** {@code image}, {@code video} or {@code none}. */
  static String preview(String mediaType) {
    if (mediaType.startsWith("image/") && !mediaType.equals("image/svg+xml")) {
      return "image";
    }
    if (mediaType.startsWith("video/")) {
      return "video";
    }
    return "none";
  }

  /**
   * The type a file is served with: images and videos as themselves, script-capable and unknown
   * text as {@code text/plain}, everything else as itself (a download).
   */
  static String servedAs(String mediaType) {
    if (mediaType.startsWith("text/")
        || mediaType.contains("xml")
        || mediaType.contains("javascript")
        || mediaType.equals("application/json")) {
      return "text/plain; charset=utf-8";
    }
    return mediaType;
  }

  private static String sniff(byte[] b) {
    if (starts(b, 0x89, 'P', 'N', 'G')) {
      return "image/png";
    }
    if (starts(b, 0xFF, 0xD8, 0xFF)) {
      return "image/jpeg";
    }
    if (starts(b, 'G', 'I', 'F', '8')) {
      return "image/gif";
    }
    if (starts(b, 'R', 'I', 'F', 'F') && b.length >= 12 && at(b, 8, 'W', 'E', 'B', 'P')) {
      return "image/webp";
    }
    if (b.length >= 12 && at(b, 4, 'f', 't', 'y', 'p')) {
      return "video/mp4";
    }
    if (starts(b, 0x1A, 0x45, 0xDF, 0xA3)) {
      return "video/webm";
    }
    if (starts(b, '%', 'P', 'D', 'F')) {
      return "application/pdf";
    }
    if (starts(b, 'P', 'K', 3, 4)) {
      return "application/zip";
    }
    return null;
  }

  private static boolean text(byte[] head) {
    for (byte x : head) {
      if (x == 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean starts(byte[] b, int... signature) {
    return at(b, 0, signature);
  }

  private static boolean at(byte[] b, int offset, int... signature) {
    if (b.length < offset + signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if ((b[offset + i] & 0xFF) != signature[i]) {
        return false;
      }
    }
    return true;
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }
}
