package dev.cortex.server.channels.slack;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Slack's request signature: {@code X-Slack-Signature} is {@code v0=} and the hex HMAC-SHA256,
 * keyed with the app's signing secret, of {@code v0:<X-Slack-Request-Timestamp>:<body>}. A request
 * is taken only when it matches, compared in constant time, and its timestamp is within five
 * minutes of now (an old request replayed is refused).
 */
final class SlackSignature {
  static final Duration SKEW = Duration.ofMinutes(5);

  private final byte[] secret;

  SlackSignature(String signingSecret) {
    this.secret = signingSecret.getBytes(StandardCharsets.UTF_8);
  }

  /** Why the request is refused, or null when it is Slack's. */
  String refusal(byte[] body, String timestamp, String signature, Instant now) {
    if (timestamp == null || signature == null) {
      return "it is not signed";
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return "its timestamp is not a number";
    }
    if (Math.abs(now.getEpochSecond() - seconds) > SKEW.toSeconds()) {
      return "its timestamp is over five minutes from now";
    }
    byte[] expected = ("v0=" + sign(timestamp.strip(), body)).getBytes(StandardCharsets.UTF_8);
    if (!MessageDigest.isEqual(expected, signature.strip().getBytes(StandardCharsets.UTF_8))) {
      return "its signature does not match";
    }
    return null;
  }

  /** The hex signature of {@code body} at {@code timestamp}. */
  String sign(String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(("v0:" + timestamp + ":").getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java", e);
    }
  }
}
