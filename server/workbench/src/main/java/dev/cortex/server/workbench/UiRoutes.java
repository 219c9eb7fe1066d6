package dev.cortex.server.workbench;

import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.WireJson;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;

/**
 * The sign-in routes: on the ui connector {@value #SIGNIN}, {@value #ME} and {@value #SIGNOUT}; on
 * the webhook (token-guarded, for {@code cortex ui}) {@value #LINK} and {@value #LOGOUT_ALL}.
 */
public final class UiRoutes {
  private static final Logger log = LoggerFactory.getLogger(UiRoutes.class);

  public static final String SIGNIN = "/api/ui/signin";
  public static final String ME = "/api/ui/me";
  public static final String SIGNOUT = "/api/ui/signout";
  public static final String LINK = "/webhook/ui/link";
  public static final String LOGOUT_ALL = "/webhook/ui/logout-all";

  /** The wait after a wrong link before the first repeat; it doubles with repeats, up to 30 s. */
  public static final Duration FAILED_SIGNIN_DELAY = Duration.ofSeconds(1);

  private static final Duration MAX_DELAY = Duration.ofSeconds(30);
  private static final Duration FAILURE_WINDOW = Duration.ofMinutes(10);
  private static final int MAX_BODY = 16 * 1024;

  /** Waits; the real one sleeps. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;

    Sleeper REAL = d -> Thread.sleep(d.toMillis());
  }

  private final Signins signins;
  private final UiSettings settings;
  private final Supplier<String> url;
  private final String version;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Deque<Instant> failures = new ArrayDeque<>();

  /** The body of {@value #SIGNIN}. */
  record SigninRequest(String link) {}

  /** The (empty) body of the other POST routes. */
  record Empty() {}

  public UiRoutes(
      Signins signins,
      UiSettings settings,
      Supplier<String> url,
      String version,
      Clock clock,
      Sleeper sleeper) {
    this.signins = Objects.requireNonNull(signins, "signins");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.url = Objects.requireNonNull(url, "url");
    this.version = Objects.requireNonNull(version, "version");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /** The routes of the ui connector, by path. */
  public Map<String, Handler> uiHandlers() {
    Map<String, Handler> routes = new LinkedHashMap<>();
    routes.put(SIGNIN, post(this::signin));
    routes.put(ME, get(this::me));
    routes.put(SIGNOUT, post(this::signout));
    return routes;
  }

  /** The routes of the webhook, by path (mount them behind the webhook's token guard). */
  public Map<String, Handler> webhookHandlers() {
    Map<String, Handler> routes = new LinkedHashMap<>();
    routes.put(LINK, post(this::link));
    routes.put(LOGOUT_ALL, post(this::logoutAll));
    return routes;
  }

  @FunctionalInterface
  private interface Route {
    void handle(byte[] body, Request request, Response response, Callback callback)
        throws Exception;
  }

  private static Handler post(Route route) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"POST".equals(request.getMethod())) {
          JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use POST.");
          return true;
        }
        byte[] body = JsonBodies.read(request, MAX_BODY);
        if (body == null) {
          JsonBodies.error(
              response, callback, 413, "INVALID_ARGUMENT", "The request body is too large.");
          return true;
        }
        route.handle(body, request, response, callback);
        return true;
      }
    };
  }

  private static Handler get(Route route) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"GET".equals(request.getMethod())) {
          JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use GET.");
          return true;
        }
        route.handle(new byte[0], request, response, callback);
        return true;
      }
    };
  }

  /** A body bound strictly to {@code type}, or null after answering 400. */
  static <T> T strict(byte[] body, Class<T> type, Response response, Callback callback) {
    try {
      return WireJson.mapper()
          .readerFor(type)
          .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .readValue(body.length == 0 ? "{}".getBytes() : body);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      JsonBodies.error(
          response,
          callback,
          400,
          "INVALID_ARGUMENT",
          "The request body is not what this route takes"
              + (type == SigninRequest.class ? " ({\"link\": \"...\"})." : " ({})."));
      return null;
    }
  }

  private void signin(byte[] body, Request request, Response response, Callback callback)
      throws InterruptedException {
    SigninRequest given = strict(body, SigninRequest.class, response, callback);
    if (given == null) {
      return;
    }
    Signins.Session session = signins.signIn(given.link());
    if (session == null) {
      Duration delay = failed();
      log.warn(
          "a sign-in to the workbench with a wrong, expired or used link was refused"
              + " (answered after {} ms)",
          delay.toMillis());
      sleeper.sleep(delay);
      JsonBodies.error(
          response,
          callback,
          401,
          "UNAUTHENTICATED",
          "This sign-in link is wrong, expired or already used: run 'cortex ui' for a new one.");
      return;
    }
    StringBuilder cookie =
        new StringBuilder(UiGuard.COOKIE)
            .append('=')
            .append(session.cookie())
            .append("; HttpOnly; SameSite=Strict; Path=/; Max-Age=")
            .append(settings.session().toSeconds());
    if (settings.tls()) {
      cookie.append("; Secure");
    }
    response.getHeaders().put("Set-Cookie", cookie.toString());
    log.info("a browser signed in to the workbench");
    JsonBodies.send(
        response,
        callback,
        200,
        Map.of("csrf", session.csrf(), "expires_at", session.expiresAt().toString()));
  }

  /** Counts a failed sign-in; the delay its answer waits for. */
  private synchronized Duration failed() {
    Instant now = clock.instant();
    while (!failures.isEmpty() && failures.peekFirst().isBefore(now.minus(FAILURE_WINDOW))) {
      failures.removeFirst();
    }
    failures.addLast(now);
    int repeats = Math.min(failures.size() - 1, 10);
    Duration delay = FAILED_SIGNIN_DELAY.multipliedBy(1L << repeats);
    return delay.compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay;
  }

  private void me(byte[] body, Request request, Response response, Callback callback) {
    Signins.Found session = (Signins.Found) request.getAttribute(UiGuard.SESSION);
    Map<String, Object> me = new LinkedHashMap<>();
    me.put("csrf", session.csrf());
    me.put("expires_at", session.expiresAt().toString());
    me.put("version", version);
    JsonBodies.send(response, callback, 200, me);
  }

  private void signout(byte[] body, Request request, Response response, Callback callback) {
    if (strict(body, Empty.class, response, callback) == null) {
      return;
    }
    signins.signOut(UiGuard.cookie(request));
    response
        .getHeaders()
        .put(
            "Set-Cookie",
            UiGuard.COOKIE
                + "=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0"
                + (settings.tls() ? "; Secure" : ""));
    JsonBodies.send(response, callback, 200, Map.of("signed_out", true));
  }

  private void link(byte[] body, Request request, Response response, Callback callback) {
    if (strict(body, Empty.class, response, callback) == null) {
      return;
    }
    Signins.Link link = signins.link();
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("url", url.get() + "/signin#" + link.secret());
    answer.put("expires_at", link.expiresAt().toString());
    // The webhook's answer shape: one line holding the result.
    JsonBodies.send(response, callback, 200, Map.of("result", answer));
  }

  private void logoutAll(byte[] body, Request request, Response response, Callback callback) {
    if (strict(body, Empty.class, response, callback) == null) {
      return;
    }
    int ended = signins.logoutAll();
    log.info("every workbench session ended ({})", ended);
    JsonBodies.send(response, callback, 200, Map.of("result", Map.of("ended", ended)));
  }
}
