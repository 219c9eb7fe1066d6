package dev.cortex.base;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 digests in lower-case hex: of stored secrets, of contents for tags and names. */
public final class Hashes {
  private Hashes() {}

  /** The SHA-256 of {@code bytes}, as 64 hexadecimal characters. */
  public static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(digest(bytes));
  }

  /** The SHA-256 of {@code text}'s UTF-8 bytes, as 64 hexadecimal characters. */
  public static String sha256(String text) {
    return sha256(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The first {@code bytes} bytes of the SHA-256 of {@code text}'s UTF-8 bytes, in hex. */
  public static String sha256Prefix(String text, int bytes) {
    return sha256Prefix(text.getBytes(StandardCharsets.UTF_8), bytes);
  }

  /** The first {@code count} bytes of the SHA-256 of {@code bytes}, in hex. */
  public static String sha256Prefix(byte[] bytes, int count) {
    return HexFormat.of().formatHex(digest(bytes), 0, count);
  }

  private static byte[] digest(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this Java has no SHA-256", e);
    }
  }
}
