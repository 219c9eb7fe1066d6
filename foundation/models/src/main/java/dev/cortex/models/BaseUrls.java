package dev.cortex.models;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Base URLs of model APIs: http or https with a host, and nothing a key could hide in or leak
 * through (no user name or password, no query, no fragment). Trailing slashes are dropped.
 */
final class BaseUrls {
  private BaseUrls() {}

  /** Why a base URL is refused: the sentence says it without repeating a credential. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    /** Whether the URL may be repeated in a message (it carries no credentials). */
    final boolean repeatable;

    Refused(String message, boolean repeatable) {
      super(message, null, false, false);
      this.repeatable = repeatable;
    }
  }

  /** {@code text} as a base URL. */
  static URI parse(String text) throws Refused {
    String base = text.strip();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    URI uri;
    try {
      uri = new URI(base);
    } catch (URISyntaxException e) {
      throw new Refused("is not an http or https URL", true);
    }
    if (uri.getRawUserInfo() != null || base.contains("@")) {
      throw new Refused(
          "must not carry a user name or password: give the key through its variable", false);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new Refused("is not an http or https URL", true);
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new Refused("must not carry a query or a fragment", false);
    }
    return uri;
  }

  /** {@code uri} with the path {@code /v1} when it has no path at all. */
  static URI withVersionPath(URI uri) {
    String path = uri.getRawPath();
    return path == null || path.isEmpty() ? URI.create(uri + "/v1") : uri;
  }
}
