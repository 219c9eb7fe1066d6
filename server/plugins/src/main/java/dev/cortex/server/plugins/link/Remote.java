package dev.cortex.server.plugins.link;

import dev.cortex.server.plugins.PluginServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What the remote links share: an HTTP client that follows no redirect (a 3xx answer ends the link
 * before anything is sent again, so neither a header nor a body is ever replayed to another
 * address), the server's headers on each request, and a reader of {@code text/event-stream}.
 */
final class Remote {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** Headers the link sets itself; a package cannot set them. */
  private static final Set<String> OWN_HEADERS =
      Set.of("accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id");

  private Remote() {}

  static HttpClient client() {
    return HttpClient.newBuilder()
        .followRedirects(HttpClient.Redirect.NEVER)
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT)
        .build();
  }

  /** A request to {@code uri} with the server's headers. */
  static HttpRequest.Builder request(PluginServer.Remote server, URI uri) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri);
    for (Map.Entry<String, String> header : server.headers().entrySet()) {
      if (!OWN_HEADERS.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
        request.header(header.getKey(), header.getValue());
      }
    }
    return request;
  }

  /** How the server is named in what a link reports: its name and origin. */
  static String name(PluginServer.Remote server) {
    return "server " + server.name() + " (" + server.summary().origin() + ")";
  }

  /** A redirect is refused: the link ends. */
  static void refuseRedirect(PluginServer.Remote server, HttpResponse<?> response)
      throws PluginLink.LinkFailure {
    int status = response.statusCode();
    if (status >= 300 && status < 400) {
      closeQuietly(response);
      throw new PluginLink.LinkFailure(
          name(server)
              + " answered with a redirect (HTTP "
              + status
              + "); plugin servers are never followed to another address, so it is not used");
    }
  }

  static void closeQuietly(HttpResponse<?> response) {
    if (response.body() instanceof InputStream in) {
      try {
        in.close();
      } catch (IOException e) {
        // nothing more to read
      }
    }
  }

  static String contentType(HttpResponse<?> response) {
    return response
        .headers()
        .firstValue("content-type")
        .orElse("")
        .toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Reads server-sent events until the stream ends, giving each event's name ({@code message} when
   * it has none) and data (its {@code data:} lines joined by newlines).
   */
  static void events(InputStream body, BiConsumer<String, String> sink) throws IOException {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      String event = null;
      StringBuilder data = null;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isEmpty()) {
          if (data != null) {
            sink.accept(event == null ? "message" : event, data.toString());
          }
          event = null;
          data = null;
        } else if (line.startsWith(":")) {
          continue;
        } else {
          int colon = line.indexOf(':');
          String field = colon < 0 ? line : line.substring(0, colon);
          String value = colon < 0 ? "" : line.substring(colon + 1);
          if (value.startsWith(" ")) {
            value = value.substring(1);
          }
          if (field.equals("event")) {
            event = value;
          } else if (field.equals("data")) {
            data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
          }
        }
      }
      if (data != null) {
        sink.accept(event == null ? "message" : event, data.toString());
      }
    }
  }
}
