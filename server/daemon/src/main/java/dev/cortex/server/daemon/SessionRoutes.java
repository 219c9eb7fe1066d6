package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.SessionEvent;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The agent server's session API on the webhook ({@link Sessions}; token and protocol checked like
 * every webhook route), for {@code cortex sessions} and {@code cortex chat}: create, list, show,
 * send (and follow the turn that takes the message, its transcript entries streamed as they are
 * recorded), stop, and page through a transcript. Bodies are read strictly into the API's records
 * ({@link JsonRoutes#strict}: a field a record does not have is refused), whose rules answer {@code
 * INVALID_ARGUMENT}; answers are its records.
 */
final class SessionRoutes {
  private final SessionService sessions;
  private final JsonRoutes routes;
  private final Duration followLimit;
  private final PersonWait waits;
  private final String version;

  /** What a session waits for from a person, for its view. */
  interface PersonWait {
    /** {@code question}, {@code plan}, or null. */
    String waitingFor(String sessionId);

    boolean planning(String sessionId);

    PersonWait NONE =
        new PersonWait() {
          @Override
          public String waitingFor(String sessionId) {
            return null;
          }

          @Override
          public boolean planning(String sessionId) {
            return false;
          }
        };
  }

  SessionRoutes(SessionService sessions, String version, Duration followLimit) {
    this(sessions, version, followLimit, PersonWait.NONE);
  }

  SessionRoutes(SessionService sessions, String version, Duration followLimit, PersonWait waits) {
    this(sessions, version, followLimit, waits, false);
  }

  private SessionRoutes(
      SessionService sessions,
      String version,
      Duration followLimit,
      PersonWait waits,
      boolean workbench) {
    this.workbench = workbench;
    this.sessions = sessions;
    this.version = version;
    this.routes = new JsonRoutes(version);
    this.followLimit = followLimit;
    this.waits = waits;
  }

  /**
   * Whether create may make sessions on {@code web:} channels as the workbench's front door does:
   * only under the test setting {@code CORTEX_TEST_WEB_SESSIONS=1}, for end-to-end tests of the
   * {@code web} group; otherwise those channels are refused as reserved.
   */
  private volatile boolean webSessions;

  /** Lets create make {@code web:} sessions (the test setting {@code CORTEX_TEST_WEB_SESSIONS}). */
  void allowWebSessions() {
    webSessions = true;
  }

  /** Whether these routes are the workbench's: create makes a person's {@code web:} session. */
  private final boolean workbench;

  /**
   * The same routes for the workbench's connector: create names a new {@code web:} channel itself
   * (a channel from the page is refused) and the session is started by a person.
   */
  SessionRoutes forWorkbench() {
    return new SessionRoutes(sessions, version, followLimit, waits, true);
  }

  /** A route's work on the request it read. */
  @FunctionalInterface
  private interface Work<T> {
    void on(T request, Response response, Callback callback) throws Exception;
  }

  /** The handlers by route. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Sessions.CREATE,
        post(Sessions.Create.class, "The body is not a session to create.", this::create));
    handlers.put(
        Sessions.LIST,
        routes.post(
            (body, request, response, callback) -> {
              Sessions.Listing listing =
                  blank(body)
                      ? new Sessions.Listing(null)
                      : JsonRoutes.record(
                          body,
                          Sessions.Listing.class,
                          "Send {\"limit\"?: 1 to " + Sessions.MAX_LIST + "}.",
                          response,
                          callback);
              if (listing != null) {
                JsonRoutes.result(
                    response,
                    callback,
                    new Sessions.Listed(
                        sessions.list(listing.limitOrDefault()).stream().map(this::view).toList()));
              }
            }));
    handlers.put(
        Sessions.SHOW,
        post(
            Sessions.Ref.class,
            Sessions.Ref.USAGE,
            (ref, response, callback) ->
                answer(response, callback, () -> view(sessions.get(ref.session())))));
    handlers.put(
        Sessions.STOP,
        post(
            Sessions.Ref.class,
            Sessions.Ref.USAGE,
            (ref, response, callback) ->
                answer(
                    response,
                    callback,
                    () ->
                        new Sessions.Stopped(
                            sessions.stop(ref.session(), "asked by the person")))));
    handlers.put(
        Sessions.TRANSCRIPT,
        post(
            Sessions.Page.class,
            Sessions.Page.USAGE,
            (page, response, callback) ->
                answer(
                    response,
                    callback,
                    () ->
                        new Sessions.Entries(
                            (page.before() != null
                                    ? sessions.transcriptBefore(
                                        page.session(), page.before(), page.limitOrDefault())
                                    : sessions.transcript(
                                        page.session(), page.afterOrFirst(), page.limitOrDefault()))
                                .stream().map(SessionRoutes::entry).toList()))));
    handlers.put(Sessions.SEND, post(Sessions.Send.class, Sessions.Send.USAGE, this::send));
    return handlers;
  }

  /**
   * A POST route that reads its body as {@code type} (else answers {@code usage}) for {@code work}.
   */
  private <T> Handler post(Class<T> type, String usage, Work<T> work) {
    return routes.post(
        (body, request, response, callback) -> {
          T value = JsonRoutes.record(body, type, usage, response, callback);
          if (value != null) {
            work.on(value, response, callback);
          }
        });
  }

  /** Whether a request has no body (or only white space). */
  private static boolean blank(byte[] body) {
    return new String(body, StandardCharsets.UTF_8).isBlank();
  }

  /** What a route answers, unless the sessions refuse it. */
  @FunctionalInterface
  private interface Answer {
    Object get() throws SessionException;
  }

  private static void answer(Response response, Callback callback, Answer answer) {
    try {
      JsonRoutes.result(response, callback, answer.get());
    } catch (SessionException e) {
      failure(response, callback, e);
    }
  }

  private void create(Sessions.Create create, Response response, Callback callback) {
    if (workbench && create.channel() != null) {
      invalid(response, callback, "The workbench names a new session's channel itself.");
      return;
    }
    if (workbench && create.startedBy() != null) {
      invalid(response, callback, "Sessions started in the workbench are started by a person.");
      return;
    }
    Path dir;
    try {
      dir = create.workingDir() == null ? null : Path.of(create.workingDir());
    } catch (InvalidPathException e) {
      invalid(
          response,
          callback,
          "The working directory "
              + create.workingDir()
              + " is not an existing absolute directory.");
      return;
    }
    SessionService.NewSession request =
        new SessionService.NewSession(
            create.name(),
            workbench ? "web:" + java.util.UUID.randomUUID() : create.channel(),
            create.project(),
            create.backend(),
            create.model(),
            create.thinking(),
            create.mode(),
            create.composition() == null
                ? null
                : Session.Composition.valueOf(create.composition().toUpperCase(Locale.ROOT)),
            workbench
                ? Session.StartedBy.PERSON
                : create.startedBy() == null
                    ? null
                    : Session.StartedBy.valueOf(create.startedBy().toUpperCase(Locale.ROOT)),
            create.program(),
            dir,
            create.toolAllowlist());
    boolean web =
        workbench || webSessions && create.channel() != null && create.channel().startsWith("web:");
    answer(
        response,
        callback,
        () -> view(web ? sessions.createFromFrontDoor(request) : sessions.create(request)));
  }

  private void send(Sessions.Send send, Response response, Callback callback) throws Exception {
    Session session;
    try {
      session = sessions.get(send.session());
    } catch (SessionException e) {
      failure(response, callback, e);
      return;
    }
    BlockingQueue<SessionService.Update> updates = new LinkedBlockingQueue<>();
    SessionService.Subscription subscription = null;
    try {
      if (send.following()) {
        subscription = sessions.follow(session.id(), updates::add);
      }
      Sessions.Delivery delivery = delivery(sessions.send(session.id(), send.text(), "person"));
      if (subscription == null) {
        JsonRoutes.result(response, callback, delivery);
        return;
      }
      try (JsonRoutes.Lines lines = JsonRoutes.stream(response)) {
        lines.write(new SessionEvent.Delivered(delivery));
        Sessions.TurnEnd end =
            new FollowedTurn(lines, updates, followLimit, send.progressOrDefault())
                .follow(delivery);
        lines.last(Map.of("result", end));
      }
      callback.succeeded();
    } catch (SessionException e) {
      failure(response, callback, e);
    } finally {
      if (subscription != null) {
        subscription.close();
      }
    }
  }

  private static Sessions.Delivery delivery(SessionService.Delivery delivery) {
    return new Sessions.Delivery(delivery.status(), delivery.executionId(), delivery.inboxSeq());
  }

  Sessions.View view(Session session) {
    return new Sessions.View(
        session.id(),
        session.name(),
        session.channel(),
        session.project(),
        session.backend(),
        session.model(),
        session.provider(),
        session.thinking(),
        session.mode(),
        session.composition().wire(),
        session.startedBy().wire(),
        session.toolAllowlist(),
        session.workingDirectory().toString(),
        session.state().wire(),
        sessions.runningExecution(session.id()),
        waits.waitingFor(session.id()),
        waits.planning(session.id()),
        session.createdAt().toString(),
        session.updatedAt().toString());
  }

  static Sessions.Entry entry(Transcript.Entry entry) {
    return new Sessions.Entry(
        entry.seq(),
        entry.executionId(),
        entry.kind().wire(),
        WireJson.mapper().readTree(entry.body()),
        entry.at().toString());
  }

  private static void invalid(Response response, Callback callback, String message) {
    JsonBodies.error(response, callback, 400, SessionException.INVALID_ARGUMENT, message);
  }

  private static void failure(Response response, Callback callback, SessionException e) {
    int status =
        switch (e.code()) {
          case SessionException.NOT_FOUND -> 404;
          case SessionException.BUDGET_EXCEEDED -> 402;
          case SessionException.RESERVED_CHANNEL -> 403;
          default -> 400;
        };
    JsonBodies.error(response, callback, status, e.code(), e.getMessage());
  }
}
