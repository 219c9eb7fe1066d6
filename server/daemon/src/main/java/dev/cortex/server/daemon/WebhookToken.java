package dev.cortex.server.daemon;

import dev.cortex.base.CortexHome;
import dev.cortex.base.StartupException;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;

/**
 * The secret MCP servers present on the webhook: {@code CORTEX_WEBHOOK_TOKEN} when set, else the
 * token in the owner-only file {@code config/webhook-token}, generated on the first start. A given
 * token is written to that file too, so that an MCP server started without the variable (by a
 * desktop client, say) finds the same one. The server refuses to start without a token.
 */
final class WebhookToken {
  static final int MIN_LENGTH = 16;

  private WebhookToken() {}

  static String resolve(CortexHome home, Map<String, String> env, boolean immutable) {
    Path file = home.configDir().resolve(Webhook.TOKEN_FILE);
    String given = env.get("CORTEX_WEBHOOK_TOKEN");
    if (given != null && !given.isBlank()) {
      String token = checked(given.strip(), "CORTEX_WEBHOOK_TOKEN");
      if (!immutable && !token.equals(read(file))) {
        CortexHome.writeAtomically(file, token + "\n");
      }
      return token;
    }
    String stored = read(file);
    if (stored != null) {
      return checked(stored, "the token file config/" + Webhook.TOKEN_FILE);
    }
    if (immutable) {
      throw new StartupException(
          "No webhook token: CORTEX_CONFIG_IMMUTABLE=1 forbids writing one, so set"
              + " CORTEX_WEBHOOK_TOKEN (at least "
              + MIN_LENGTH
              + " characters).");
    }
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    CortexHome.writeAtomically(file, token + "\n");
    return token;
  }

  private static String checked(String token, String source) {
    if (token.length() < MIN_LENGTH || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
      throw new StartupException(
          source
              + " must be at least "
              + MIN_LENGTH
              + " printable ASCII characters without spaces; the server will not start with a"
              + " weaker webhook token.");
    }
    return token;
  }

  private static String read(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        return null;
      }
      String text = Files.readString(file).strip();
      return text.isEmpty() ? null : text;
    } catch (IOException e) {
      throw new StartupException("Cannot read the webhook token file config/" + file.getFileName());
    }
  }
}
