package dev.cortex.server.workbench;

import dev.cortex.http.JsonBodies;
import dev.cortex.http.RequestGuard;
import java.util.Objects;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every request to the workbench's connector passes first. Every answer carries the security
 * headers (and pages the CSP). Then: a Host naming this server and no foreign Origin (403), no
 * secret in the query string; for {@code /api/*} (sign-in aside) a live cookie session (401) and,
 * for anything but GET and HEAD, the UI's own Origin and the session's csrf token in {@value
 * #CSRF_HEADER} (403).
 */
public final class UiGuard extends Handler.Wrapper {
  private static final Logger log = LoggerFactory.getLogger(UiGuard.class);

  public static final String COOKIE = "cortex_ui";
  public static final String CSRF_HEADER = "x-cortex-csrf";
  public static final String CSP =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:;"
          + " media-src 'self' blob:; frame-src 'self'; connect-src 'self'; frame-ancestors 'none';"
          + " base-uri 'none'; form-action 'self'";

  /** The request attribute that holds the caller's {@link Signins.Found} session. */
  static final String SESSION = "cortex.ui.session";

  /** The path whose views the page frames: they set their own CSP and frame rules. */
  static final String VIEWS = "/api/web/views/";

  private final Supplier<RequestGuard> hosts;
  private final Supplier<String> origin;
  private final Signins signins;

  /**
   * @param hosts the Host/Origin rule of this connector (null while starting)
   * @param origin the UI's own origin, e.g. {@code http://127.0.0.1:3004}
   */
  public UiGuard(
      Supplier<RequestGuard> hosts, Supplier<String> origin, Signins signins, Handler child) {
    super(child);
    this.hosts = Objects.requireNonNull(hosts, "hosts");
    this.origin = Objects.requireNonNull(origin, "origin");
    this.signins = Objects.requireNonNull(signins, "signins");
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = request.getHttpURI().getPath();
    headers(response, path);
    RequestGuard guard = hosts.get();
    if (guard == null) {
      JsonBodies.refuse(
          request, response, callback, 503, "UNAVAILABLE", "Starting; retry shortly.");
      return true;
    }
    RequestGuard.Refusal refusal =
        guard.check(name -> request.getHeaders().get(name), request.getHttpURI().getQuery());
    if (refusal != null) {
      JsonBodies.refuse(
          request, response, callback, refusal.status(), refusal.code(), refusal.message());
      return true;
    }
    if (path != null && path.startsWith("/api/")) {
      if (UiRoutes.SIGNIN.equals(path)) {
        if (!"signin".equals(request.getHeaders().get(CSRF_HEADER)) || !sameOrigin(request)) {
          forbidden(request, response, callback);
          return true;
        }
      } else {
        Signins.Found session = signins.find(cookie(request));
        if (session == null) {
          JsonBodies.refuse(
              request,
              response,
              callback,
              401,
              "UNAUTHENTICATED",
              "Not signed in: run 'cortex ui' and open the link it prints.");
          return true;
        }
        if (!safe(request.getMethod())
            && !(sameOrigin(request) && csrfMatches(request, session.csrf()))) {
          forbidden(request, response, callback);
          return true;
        }
        request.setAttribute(SESSION, session);
      }
    }
    try {
      if (super.handle(request, response, callback)) {
        return true;
      }
      JsonBodies.error(response, callback, 404, "NOT_FOUND", "No such page or route.");
      return true;
    } catch (Exception | LinkageError e) {
      log.error("{} {} failed", request.getMethod(), path, e);
      if (response.isCommitted()) {
        callback.failed(e);
      } else {
        JsonBodies.error(
            response, callback, 500, "INTERNAL", "The request failed; see the server log.");
      }
      return true;
    }
  }

  private static void headers(Response response, String path) {
    var headers = response.getHeaders();
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("Referrer-Policy", "no-referrer");
    if (path == null || !path.startsWith(VIEWS)) {
      headers.put("X-Frame-Options", "DENY");
      headers.put("Content-Security-Policy", CSP);
    }
  }

  private static void forbidden(Request request, Response response, Callback callback) {
    JsonBodies.refuse(
        request,
        response,
        callback,
        403,
        "FORBIDDEN",
        "Cross-site request refused: send it from the workbench's own page.");
  }

  private static boolean safe(String method) {
    return "GET".equals(method) || "HEAD".equals(method);
  }

  /**
   * An Origin header equal to the UI's own origin; for the sign-in, an absent one is refused too.
   */
  private boolean sameOrigin(Request request) {
    String given = request.getHeaders().get("Origin");
    return given != null && given.strip().equalsIgnoreCase(origin.get());
  }

  private static boolean csrfMatches(Request request, String csrf) {
    String given = request.getHeaders().get(CSRF_HEADER);
    return given != null
        && java.security.MessageDigest.isEqual(
            given.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            csrf.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** The value of the {@value #COOKIE} cookie, or null. */
  static String cookie(Request request) {
    for (String header : request.getHeaders().getValuesList("Cookie")) {
      for (String pair : header.split(";")) {
        int eq = pair.indexOf('=');
        if (eq > 0 && pair.substring(0, eq).strip().equals(COOKIE)) {
          return pair.substring(eq + 1).strip();
        }
      }
    }
    return null;
  }
}
