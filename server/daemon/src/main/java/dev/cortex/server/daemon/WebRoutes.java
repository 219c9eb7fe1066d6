package dev.cortex.server.daemon;

import dev.cortex.base.ErrorCodes;
import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.session.Web;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The {@code web} group's routes ({@link Web}): the webhook routes its tools call for their session
 * ({@link #handlers}), the JSON API of decisions, boards and views ({@link #apiHandlers}, on the
 * webhook behind its token and on the workbench's connector behind its guard), and the GET routes
 * that serve delivered files and views to the workbench ({@link #uiHandlers}), with the headers
 * that keep them from running in the workbench's origin.
 */
public final class WebRoutes {
  /** The policy of a delivered file: nothing in it runs. */
  /**
   * Scripts never run in a file, and no page frames it; {@code allow-downloads} lets browsers save
   * it (Chromium refuses downloads of a sandboxed answer otherwise).
   */
  static final String FILE_CSP =
      "sandbox allow-downloads; default-src 'none'; frame-ancestors 'none'";

  /**
   * The policy of a view: its scripts run, in an opaque origin, reach only https, and only the
   * workbench's own pages may frame it.
   */
  static final String VIEW_CSP =
      "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline' https:;"
          + " style-src 'unsafe-inline' https:; img-src data: blob: https:; font-src https: data:;"
          + " connect-src https:; frame-ancestors 'self'";

  private final WebService web;
  private final JsonRoutes routes;
  private final SessionService sessions;
  private final Function<dev.cortex.server.sessions.store.Session, Sessions.View> views;

  WebRoutes(
      WebService web,
      SessionService sessions,
      Function<dev.cortex.server.sessions.store.Session, Sessions.View> views,
      String version) {
    this.web = web;
    this.sessions = sessions;
    this.views = views;
    this.routes = new JsonRoutes(version);
  }

  /** The webhook routes of the tools. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(Web.SEND_FILE, post(Web.SendFile.class, Web.SendFile.USAGE, r -> web.sendFile(r)));
    handlers.put(Web.SEND_VIEW, post(Web.SendView.class, Web.SendView.USAGE, r -> web.sendView(r)));
    handlers.put(
        Web.SEND_DECISION,
        post(Web.SendDecision.class, Web.SendDecision.USAGE, r -> web.sendDecision(r)));
    handlers.put(
        Web.BOARD_OPEN, post(Web.BoardOpen.class, Web.BoardOpen.USAGE, r -> web.openBoard(r)));
    handlers.put(
        Web.BOARD_OF,
        post(
            Web.BoardOf.class,
            Web.BoardOf.USAGE,
            r -> new Web.BoardOfSession(web.isWeb(r.sessionId()), web.boardOf(r.sessionId()))));
    return handlers;
  }

  /** The JSON API of decisions, boards and views, by route. */
  public Map<String, Handler> apiHandlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Web.VIEWS_WIDTH, post(Web.ViewWidth.class, Web.ViewWidth.USAGE, r -> web.viewWidth(r)));
    handlers.put(
        Web.DECISIONS_SHOW,
        post(Web.DecisionRef.class, Web.DecisionRef.USAGE, r -> web.decisions(r)));
    handlers.put(
        Web.DECISIONS_ACT, post(Web.DecisionAct.class, Web.DecisionAct.USAGE, r -> web.act(r)));
    handlers.put(
        Web.BOARDS_LIST,
        routes.post(
            (body, request, response, callback) -> {
              String text = new String(body, StandardCharsets.UTF_8).strip();
              if (!text.isEmpty() && !text.equals("{}")) {
                JsonRoutes.invalid(response, callback, "Send {}.");
                return;
              }
              JsonRoutes.answer(response, callback, web::boards, WebRoutes::status);
            }));
    handlers.put(Web.BOARDS_SHOW, post(Web.BoardRef.class, Web.BoardRef.USAGE, this::showBoard));
    return handlers;
  }

  /** The GET routes of delivered files and views, by path spec. */
  public Map<String, Handler> uiHandlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(Web.FILES, get(this::serveFile));
    handlers.put(Web.VIEWS, get(this::serveView));
    return handlers;
  }

  private Object showBoard(Web.BoardRef ref) {
    WebService.Shown shown = web.board(ref);
    List<Sessions.View> bound = new ArrayList<>();
    for (String id : shown.board().sessions()) {
      try {
        bound.add(views.apply(sessions.get(id)));
      } catch (SessionException e) {
        // a session that is gone is not shown
      }
    }
    return new Web.BoardShown(shown.board(), bound, shown.files(), shown.content());
  }

  // ---- GET routes -------------------------------------------------------------------------

  @FunctionalInterface
  private interface Serve {
    void serve(String sessionId, String id, Response response, Callback callback)
        throws IOException;
  }

  private static Handler get(Serve serve) {
    return new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback)
          throws Exception {
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
          JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use GET.");
          return true;
        }
        String[] parts = request.getHttpURI().getDecodedPath().split("/");
        // "", "api", "web", "files|views", session, id
        if (parts.length != 6 || parts[4].isEmpty() || parts[5].isEmpty()) {
          JsonBodies.error(response, callback, 404, Web.Codes.NOT_FOUND, "No such file.");
          return true;
        }
        serve.serve(parts[4], parts[5], response, callback);
        return true;
      }
    };
  }

  private void serveFile(String sessionId, String fileId, Response response, Callback callback)
      throws IOException {
    WebService.StoredFile file = fileId.startsWith("f_") ? web.file(sessionId, fileId) : null;
    if (file == null) {
      JsonBodies.error(response, callback, 404, Web.Codes.NOT_FOUND, "No such file.");
      return;
    }
    String type = WebMedia.servedAs(file.mediaType());
    boolean inline = !WebMedia.preview(file.mediaType()).equals("none");
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response
        .getHeaders()
        .put(
            "Content-Disposition",
            (inline ? "inline" : "attachment") + "; filename*=UTF-8''" + encode(file.name()));
    response.getHeaders().put("Content-Security-Policy", FILE_CSP);
    send(response, callback, file.path());
  }

  private void serveView(String sessionId, String id, Response response, Callback callback)
      throws IOException {
    Path file = Web.ATTACHMENT_ID.matcher(id).matches() ? web.viewFile(sessionId, id) : null;
    if (file == null) {
      JsonBodies.error(response, callback, 404, Web.Codes.NOT_FOUND, "No such view.");
      return;
    }
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
    response.getHeaders().put("Content-Security-Policy", VIEW_CSP);
    send(response, callback, file);
  }

  private static void send(Response response, Callback callback, Path file) throws IOException {
    response.setStatus(200);
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "private, no-store");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, Files.size(file));
    try (var in = Files.newInputStream(file);
        var out = Content.Sink.asOutputStream(response)) {
      in.transferTo(out);
    }
    callback.succeeded();
  }

  private static String encode(String name) {
    return java.net.URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
  }

  // ---- JSON plumbing ----------------------------------------------------------------------

  private <T> Handler post(Class<T> type, String usage, Function<T, Object> work) {
    return routes.coded(type, usage, work, WebRoutes::status);
  }

  /** The HTTP status of an error code of the web group's routes. */
  private static int status(String code) {
    return switch (code) {
      case Web.Codes.NOT_FOUND -> 404;
      case Web.Codes.NOT_WEB -> 403;
      case ErrorCodes.UNAVAILABLE -> 503;
      case ErrorCodes.INTERNAL -> 500;
      case SessionException.BUDGET_EXCEEDED -> 429;
      default -> 400;
    };
  }
}
