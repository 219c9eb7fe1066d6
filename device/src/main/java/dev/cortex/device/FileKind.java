package dev.cortex.device;

/** What a file holds, told by its first bytes, not its name. */
enum FileKind {
  PNG("image", "image/png"),
  JPEG("image", "image/jpeg"),
  GIF("image", "image/gif"),
  WEBP("image", "image/webp"),
  PDF("pdf", "application/pdf"),
  BINARY("binary", "application/octet-stream"),
  TEXT("text", "text/plain");

  final String kind;
  final String mimeType;

  FileKind(String kind, String mimeType) {
    this.kind = kind;
    this.mimeType = mimeType;
  }

  boolean media() {
    return kind.equals("image") || kind.equals("pdf");
  }

  /** The kind of a file whose first bytes (up to 8 KiB) are {@code head}. */
  static FileKind of(byte[] head, int length) {
    if (starts(head, length, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
      return PNG;
    }
    if (starts(head, length, 0xFF, 0xD8, 0xFF)) {
      return JPEG;
    }
    if (starts(head, length, 'G', 'I', 'F', '8') && length > 5 && head[5] == 'a') {
      return GIF;
    }
    if (starts(head, length, 'R', 'I', 'F', 'F')
        && length >= 12
        && head[8] == 'W'
        && head[9] == 'E'
        && head[10] == 'B'
        && head[11] == 'P') {
      return WEBP;
    }
    if (starts(head, length, '%', 'P', 'D', 'F', '-')) {
      return PDF;
    }
    for (int i = 0; i < length; i++) {
      if (head[i] == 0) {
        return BINARY;
      }
    }
    return TEXT;
  }

  private static boolean starts(byte[] head, int length, int... prefix) {
    if (length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((head[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
