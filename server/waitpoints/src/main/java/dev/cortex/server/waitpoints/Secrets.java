package dev.cortex.server.waitpoints;

import dev.cortex.base.Hashes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The random parts of a waitpoint: its id, its one-time secret (256 bits) and the secret's SHA-256,
 * which alone is kept; and the comparison of a signal's secret with it in constant time.
 */
final class Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Secrets() {}

  /**
   * A new secret: {@code wps_} and 32 random bytes, base64url (of the form {@code Waits.SECRET}).
   */
  static String secret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "wps_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** {@code bytes} random bytes as hex digits. */
  static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }

  static String sha256(String secret) {
    return Hashes.sha256(secret);
  }

  /** Whether {@code secret} is the one whose hash is {@code sha256}, in constant time. */
  static boolean matches(String secret, String sha256) {
    return MessageDigest.isEqual(
        sha256(secret).getBytes(StandardCharsets.US_ASCII),
        sha256.getBytes(StandardCharsets.US_ASCII));
  }
}
