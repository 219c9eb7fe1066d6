package dev.cortex.server.workbench;

import dev.cortex.base.Hashes;
import dev.cortex.http.JsonBodies;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The workbench's pages and assets, from the classpath: {@code /} is {@code workbench/index.html},
 * {@code /signin} is {@code workbench/signin.html}, {@code /assets/*} is {@code
 * workbench/assets/*}, and {@code /assets/vendor/uplot/*} the uPlot WebJar's {@code dist/}. GET and
 * HEAD only; a path with {@code ..}, a backslash, an encoded character or an unknown extension is
 * not found; no directory is ever listed. Answers carry an ETag and {@code Cache-Control: no-cache}
 * (revalidate, so a new version shows at once).
 */
public final class UiAssets extends Handler.Abstract {
  static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";
  private static final String VENDOR_UPLOT = "/assets/vendor/uplot/";
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._/-]+");

  private static final Map<String, String> TYPES =
      Map.ofEntries(
          Map.entry("html", "text/html; charset=utf-8"),
          Map.entry("js", "text/javascript; charset=utf-8"),
          Map.entry("mjs", "text/javascript; charset=utf-8"),
          Map.entry("css", "text/css; charset=utf-8"),
          Map.entry("json", "application/json; charset=utf-8"),
          Map.entry("svg", "image/svg+xml"),
          Map.entry("png", "image/png"),
          Map.entry("ico", "image/x-icon"),
          Map.entry("woff2", "font/woff2"),
          Map.entry("txt", "text/plain; charset=utf-8"));

  private record Asset(byte[] bytes, String type, String etag) {}

  private final ClassLoader loader;
  private final Map<String, Asset> cache = new ConcurrentHashMap<>();

  public UiAssets() {
    this(UiAssets.class.getClassLoader());
  }

  UiAssets(ClassLoader loader) {
    this.loader = loader;
  }

  /** The classpath resource of a request path, or null when it names none we serve. */
  static String resource(String path) {
    if (path == null) {
      return null;
    }
    if (path.equals("/") || path.equals("/index.html")) {
      return "workbench/index.html";
    }
    if (path.equals("/signin")) {
      return "workbench/signin.html";
    }
    if (!path.startsWith("/assets/")
        || !SAFE.matcher(path).matches()
        || path.contains("..")
        || path.contains("//")
        || path.endsWith("/")) {
      return null;
    }
    if (!TYPES.containsKey(extension(path))) {
      return null;
    }
    if (path.startsWith(VENDOR_UPLOT)) {
      return UPLOT + path.substring(VENDOR_UPLOT.length());
    }
    return "workbench" + path;
  }

  private static String extension(String path) {
    int dot = path.lastIndexOf('.');
    int slash = path.lastIndexOf('/');
    return dot > slash ? path.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String method = request.getMethod();
    // The raw path: an encoded character (%2e%2e, %2f) never reaches a resource name.
    String raw = request.getHttpURI().getPath();
    String name = resource(raw);
    Asset asset = name == null ? null : load(name);
    if (asset == null) {
      JsonBodies.error(response, callback, 404, "NOT_FOUND", "No such page or asset.");
      return true;
    }
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use GET.");
      return true;
    }
    response.getHeaders().put(HttpHeader.ETAG, asset.etag());
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
    String match = request.getHeaders().get(HttpHeader.IF_NONE_MATCH);
    if (match != null && match.contains(asset.etag())) {
      response.setStatus(304);
      callback.succeeded();
      return true;
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.type());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, asset.bytes().length);
    response.write(
        true,
        "HEAD".equals(method) ? ByteBuffer.allocate(0) : ByteBuffer.wrap(asset.bytes()),
        callback);
    return true;
  }

  private Asset load(String name) throws IOException {
    Asset cached = cache.get(name);
    if (cached != null) {
      return cached;
    }
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        return null;
      }
      byte[] bytes = in.readAllBytes();
      Asset asset = new Asset(bytes, TYPES.get(extension(name)), etag(bytes));
      cache.put(name, asset);
      return asset;
    }
  }

  private static String etag(byte[] bytes) {
    return "\"" + Hashes.sha256Prefix(bytes, 12) + "\"";
  }
}
