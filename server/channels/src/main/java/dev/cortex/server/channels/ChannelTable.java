package dev.cortex.server.channels;

import dev.cortex.base.settings.TableValues;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** How the chat platforms' tables of {@code cortex.toml} read the keys they share. */
public final class ChannelTable {
  private ChannelTable() {}

  /** {@code api_url}: an http(s) URL ending in a slash, {@code fallback} when not given. */
  public static URI apiUrl(TableValues values, String fallback) {
    String url = values.string("api_url", fallback);
    URI api;
    try {
      api = URI.create(url.endsWith("/") ? url : url + "/");
    } catch (IllegalArgumentException e) {
      throw values.problem("api_url", "is not a URL");
    }
    if (!"https".equals(api.getScheme()) && !"http".equals(api.getScheme())) {
      throw values.problem("api_url", "is an http(s) URL");
    }
    return api;
  }

  /** The list {@code key} (empty when not given), each entry an {@code id}, else {@code rule}. */
  public static List<String> ids(TableValues values, String key, Pattern id, String rule) {
    List<String> ids = values.has(key) ? values.strings(key) : List.of();
    for (String each : ids) {
      if (!id.matcher(each).matches()) {
        throw values.problem(key, rule);
      }
    }
    return ids;
  }

  /** The text {@code key}, or null when not given. */
  public static String text(TableValues values, String key) {
    return values.has(key) ? values.string(key, null) : null;
  }

  /** {@code working_directory}, or null when not given. */
  public static Path workingDirectory(TableValues values) {
    String given = text(values, "working_directory");
    return given == null ? null : Path.of(given);
  }
}
