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

  /** The longest answer or event read from a remote server. */
  static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

  /** How long a server has to start answering a request that is not a tool's work. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A request to {@code uri} with the server's headers; a header the HTTP client refuses ends in a
   * {@link PluginLink.LinkFailure} that names it, never its value.
   */
  static HttpRequest.Builder request(PluginServer.Remote server, URI uri)
      throws PluginLink.LinkFailure {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri);
    for (Map.Entry<String, String> header : server.headers().entrySet()) {
      if (!OWN_HEADERS.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
        try {
          request.header(header.getKey(), header.getValue());
        } catch (IllegalArgumentException e) {
          throw new PluginLink.LinkFailure(
              name(server) + ": the HTTP client refuses its header " + header.getKey());
        }
      }
    }
    return request;
  }

  /** A header the link sets from what a server said, refused unless it is plain. */
  static void header(HttpRequest.Builder request, String name, String value) {
    if (value != null && value.matches("[A-Za-z0-9._:~+/=-]{1,256}")) {
      request.header(name, value);
    }
  }

  /** How the server is named in what a link reports: its name and origin. */
  static String name(PluginServer.Remote server) {
    return "server " + server.name() + " (" + server.summary().origin() + ")";
  }

  /**
   * Sends {@code request}; what goes wrong is a {@link PluginLink.LinkFailure} that says it
   * plainly.
   */
  static HttpResponse<InputStream> send(
      HttpClient http, HttpRequest request, PluginServer.Remote server)
      throws PluginLink.LinkFailure {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (java.net.http.HttpTimeoutException e) {
      throw new PluginLink.LinkFailure(name(server) + " did not answer in time");
    } catch (IOException e) {
      throw new PluginLink.LinkFailure(name(server) + " cannot be reached");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PluginLink.LinkFailure("interrupted");
    }
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
   * Reads server-sent events while {@code sink} says to go on (or the stream ends); an event over
   * the cap ends the reading with an error.
   */
  static void events(InputStream body, EventSink sink) throws IOException {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      dev.cortex.base.EventStream.<IOException>read(
          reader::readLine, (event, data) -> !sink.accept(event, data), MAX_MESSAGE_BYTES);
    } catch (dev.cortex.base.EventStream.TooLong e) {
      throw new IOException(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  /** Takes an event; false stops the reading. */
  @FunctionalInterface
  interface EventSink {
    boolean accept(String event, String data);
  }

  /** The whole of a plain answer, up to the cap. */
  static byte[] readCapped(InputStream body) throws IOException {
    byte[] bytes = body.readNBytes(MAX_MESSAGE_BYTES + 1);
    if (bytes.length > MAX_MESSAGE_BYTES) {
      throw new IOException("an answer of over " + MAX_MESSAGE_BYTES + " bytes");
    }
    return bytes;
  }
}
