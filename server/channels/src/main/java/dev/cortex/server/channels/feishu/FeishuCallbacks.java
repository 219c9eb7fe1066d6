package dev.cortex.server.channels.feishu;

import dev.cortex.base.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What makes a request to {@code /feishu/events} Feishu's. With an encrypt key, Feishu signs each
 * request ({@code X-Lark-Signature} is the hex SHA-256 of {@code X-Lark-Request-Timestamp}, {@code
 * X-Lark-Request-Nonce}, the key and the body, one after the other) and encrypts its body ({@code
 * {"encrypt": base64}}: AES-256-CBC keyed with the SHA-256 of the key, the first 16 bytes the IV):
 * the signature must match, in constant time, within five minutes of now. Every body, encrypted or
 * not, carries the app's verification token, which must be this app's.
 */
final class FeishuCallbacks {
  static final Duration SKEW = Duration.ofMinutes(5);

  /** A request that is not Feishu's; the message says why, without secrets. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private final byte[] verificationToken;
  private final String encryptKey;

  /**
   * @param encryptKey the event subscription's encrypt key, or null when it sends plain bodies
   */
  FeishuCallbacks(String verificationToken, String encryptKey) {
    this.verificationToken = verificationToken.getBytes(StandardCharsets.UTF_8);
    this.encryptKey = encryptKey;
  }

  /** Whether bodies come encrypted and signed (an encrypt key is set). */
  boolean encrypted() {
    return encryptKey != null;
  }

  /**
   * The request's payload, decrypted, once its signature (with an encrypt key) and its verification
   * token hold. A URL check ({@code url_verification}) needs the token only: Feishu does not sign
   * it, and its answer gives nothing away.
   */
  JsonNode open(byte[] body, String timestamp, String nonce, String signature, Instant now)
      throws Refused {
    JsonNode payload = read(body);
    boolean encrypted = payload.has("encrypt");
    if (encrypted) {
      if (encryptKey == null) {
        throw new Refused("its body is encrypted and FEISHU_ENCRYPT_KEY is not set");
      }
      payload = read(decrypt(payload.path("encrypt").asString("")));
    } else if (encryptKey != null) {
      throw new Refused("its body is not encrypted, and FEISHU_ENCRYPT_KEY says it should be");
    }
    if (!token(payload)) {
      throw new Refused("its verification token is not this app's");
    }
    if (encryptKey != null && !"url_verification".equals(payload.path("type").asString(""))) {
      checkSignature(body, timestamp, nonce, signature, now);
    }
    return payload;
  }

  private boolean token(JsonNode payload) {
    String given =
        payload.path("header").path("token").asString(payload.path("token").asString(""));
    return MessageDigest.isEqual(verificationToken, given.getBytes(StandardCharsets.UTF_8));
  }

  private void checkSignature(
      byte[] body, String timestamp, String nonce, String signature, Instant now) throws Refused {
    if (timestamp == null || nonce == null || signature == null) {
      throw new Refused("it is not signed");
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      throw new Refused("its timestamp is not a number");
    }
    if (Math.abs(now.getEpochSecond() - seconds) > SKEW.toSeconds()) {
      throw new Refused("its timestamp is over five minutes from now");
    }
    byte[] expected = sign(timestamp, nonce, body).getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(expected, signature.strip().getBytes(StandardCharsets.UTF_8))) {
      throw new Refused("its signature does not match");
    }
  }

  /** The hex signature of {@code body} with this key. */
  String sign(String timestamp, String nonce, byte[] body) {
    MessageDigest sha = sha256();
    sha.update((timestamp + nonce + encryptKey).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(sha.digest(body));
  }

  byte[] decrypt(String encrypted) throws Refused {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(encrypted);
    } catch (IllegalArgumentException e) {
      throw new Refused("its encrypted body is not base64");
    }
    if (bytes.length < 32 || bytes.length % 16 != 0) {
      throw new Refused("its encrypted body is not AES-CBC");
    }
    try {
      Cipher cipher = Cipher.getInstance("AES/CBC/PKCS5Padding");
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(sha256().digest(encryptKey.getBytes(StandardCharsets.UTF_8)), "AES"),
          new IvParameterSpec(Arrays.copyOf(bytes, 16)));
      return cipher.doFinal(bytes, 16, bytes.length - 16);
    } catch (GeneralSecurityException e) {
      throw new Refused("its body does not decrypt with FEISHU_ENCRYPT_KEY");
    }
  }

  private static JsonNode read(byte[] body) throws Refused {
    try {
      JsonNode node = Json.mapper().readTree(body);
      if (node == null || !node.isObject()) {
        throw new Refused("its body is not a JSON object");
      }
      return node;
    } catch (JacksonException e) {
      throw new Refused("its body is not JSON");
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java", e);
    }
  }
}
