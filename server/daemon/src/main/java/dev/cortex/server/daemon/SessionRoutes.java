package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.WireJson;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The agent server's session API on the webhook (token and protocol checked like every webhook
 * route), for {@code cortex sessions} and {@code cortex chat}: create, list, show, send (and follow
 * the turn that takes the message, its transcript entries streamed as they are recorded), stop, and
 * page through a transcript.
 */
final class SessionRoutes {
  static final String PREFIX = "/api/sessions/";
  static final int MAX_LIST = 200;
  static final int MAX_PAGE = 500;

  private final SessionService sessions;
  private final JsonRoutes routes;
  private final Duration followLimit;

  SessionRoutes(SessionService sessions, String version, Duration followLimit) {
    this.sessions = sessions;
    this.routes = new JsonRoutes(version);
    this.followLimit = followLimit;
  }

  record Create(
      String name,
      String channel,
      String project,
      String backend,
      String model,
      String mode,
      String composition,
      String startedBy,
      List<String> program,
      String workingDir,
      List<String> toolAllowlist) {}

  record Ref(String session) {}

  /**
   * @param progressSeconds while following, a {@code progress} line after this many seconds without
   *     news (default 15, 1-600; 0 for none)
   */
  record Send(String session, String text, Boolean follow, Integer progressSeconds) {}

  /** How often a followed turn that says nothing gets a progress line, by default. */
  static final int PROGRESS_SECONDS = 15;

  record Page(String session, Long after, Integer limit) {}

  record Listing(Integer limit) {}

  /** The handlers by path under {@link #PREFIX}. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        "create",
        routes.post((body, request, response, callback) -> create(body, response, callback)));
    handlers.put(
        "list",
        routes.post(
            (body, request, response, callback) -> {
              Listing listing =
                  blank(body) ? new Listing(null) : JsonRoutes.bind(body, Listing.class);
              if (listing == null) {
                invalid(response, callback, "Send {\"limit\"?: 1 to " + MAX_LIST + "}.");
                return;
              }
              int limit = listing.limit() == null ? 50 : listing.limit();
              if (limit < 1 || limit > MAX_LIST) {
                invalid(response, callback, "limit must be 1 to " + MAX_LIST + ".");
                return;
              }
              JsonRoutes.result(
                  response,
                  callback,
                  Map.of("sessions", sessions.list(limit).stream().map(this::view).toList()));
            }));
    handlers.put(
        "show",
        routes.post(
            (body, request, response, callback) ->
                withSession(
                    body,
                    response,
                    callback,
                    s -> JsonRoutes.result(response, callback, view(s)))));
    handlers.put(
        "stop",
        routes.post(
            (body, request, response, callback) ->
                withSession(
                    body,
                    response,
                    callback,
                    s ->
                        JsonRoutes.result(
                            response,
                            callback,
                            Map.of("stopped", sessions.stop(s.id(), "asked by the person"))))));
    handlers.put(
        "transcript",
        routes.post((body, request, response, callback) -> page(body, response, callback)));
    handlers.put(
        "send", routes.post((body, request, response, callback) -> send(body, response, callback)));
    return handlers;
  }

  /** Whether a request has no body (or only white space). */
  private static boolean blank(byte[] body) {
    return new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank();
  }

  /** Work on a session that is named by the body's {@code session}. */
  @FunctionalInterface
  private interface OnSession {
    void accept(Session session) throws SessionException;
  }

  private void withSession(byte[] body, Response response, Callback callback, OnSession work) {
    Ref ref = JsonRoutes.bind(body, Ref.class);
    if (ref == null || ref.session() == null) {
      invalid(response, callback, "Send {\"session\": ID or NAME}.");
      return;
    }
    try {
      work.accept(sessions.get(ref.session()));
    } catch (SessionException e) {
      failure(response, callback, e);
    }
  }

  private void create(byte[] body, Response response, Callback callback) {
    Create create = JsonRoutes.bind(body, Create.class);
    if (create == null) {
      invalid(response, callback, "The body is not a session to create.");
      return;
    }
    try {
      Session.Composition composition =
          create.composition() == null
              ? null
              : Session.Composition.valueOf(upper(create.composition()));
      Session.StartedBy startedBy =
          create.startedBy() == null ? null : Session.StartedBy.valueOf(upper(create.startedBy()));
      Session session =
          sessions.create(
              new SessionService.NewSession(
                  create.name(),
                  create.channel(),
                  create.project(),
                  create.backend(),
                  create.model(),
                  create.mode(),
                  composition,
                  startedBy,
                  create.program(),
                  create.workingDir() == null ? null : Path.of(create.workingDir()),
                  create.toolAllowlist()));
      JsonRoutes.result(response, callback, view(session));
    } catch (IllegalArgumentException e) {
      invalid(
          response,
          callback,
          "composition is direct or none; started_by is person, agent, schedule or callback.");
    } catch (SessionException e) {
      failure(response, callback, e);
    }
  }

  private static String upper(String text) {
    return text.strip().toUpperCase(Locale.ROOT);
  }

  private void page(byte[] body, Response response, Callback callback) {
    Page page = JsonRoutes.bind(body, Page.class);
    if (page == null || page.session() == null) {
      invalid(
          response, callback, "Send {\"session\": ID or NAME, \"after\"?: SEQ, \"limit\"?: N}.");
      return;
    }
    int limit = page.limit() == null ? 100 : page.limit();
    long after = page.after() == null ? 0 : page.after();
    if (limit < 1 || limit > MAX_PAGE || after < 0) {
      invalid(response, callback, "limit must be 1 to " + MAX_PAGE + " and after 0 or more.");
      return;
    }
    try {
      List<Map<String, Object>> entries =
          sessions.transcript(page.session(), after, limit).stream()
              .map(SessionRoutes::entry)
              .toList();
      JsonRoutes.result(response, callback, Map.of("entries", entries));
    } catch (SessionException e) {
      failure(response, callback, e);
    }
  }

  private void send(byte[] body, Response response, Callback callback) throws Exception {
    Send send = JsonRoutes.bind(body, Send.class);
    if (send == null || send.session() == null || send.text() == null) {
      invalid(
          response,
          callback,
          "Send {\"session\": ID or NAME, \"text\": MESSAGE, \"follow\"?: true,"
              + " \"progress_seconds\"?: 0-600}.");
      return;
    }
    int progressSeconds =
        send.progressSeconds() == null ? PROGRESS_SECONDS : send.progressSeconds();
    if (progressSeconds < 0 || progressSeconds > 600) {
      invalid(
          response,
          callback,
          "progress_seconds must be from 0 (no progress lines) to 600, not "
              + progressSeconds
              + ".");
      return;
    }
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
      if (Boolean.TRUE.equals(send.follow())) {
        subscription = sessions.follow(session.id(), updates::add);
      }
      SessionService.Delivery delivery = sessions.send(session.id(), send.text(), "person");
      if (subscription == null) {
        JsonRoutes.result(response, callback, delivery(delivery));
        return;
      }
      try (JsonRoutes.Lines lines = JsonRoutes.stream(response)) {
        lines.write(Map.of("event", "delivery", "delivery", delivery(delivery)));
        Map<String, Object> end = follow(lines, updates, delivery, progressSeconds);
        lines.write(Map.of("result", end));
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

  /** Streams the entries of the turn that took the message until it ends; returns the end. */
  private Map<String, Object> follow(
      JsonRoutes.Lines lines,
      BlockingQueue<SessionService.Update> updates,
      SessionService.Delivery delivery,
      int progressSeconds)
      throws InterruptedException {
    String execution = delivery.status().equals("queued") ? null : delivery.executionId();
    long now = System.nanoTime();
    long deadline = now + followLimit.toNanos();
    long every = TimeUnit.SECONDS.toNanos(progressSeconds);
    long started = now;
    long news = now;
    long shown = now;
    int toolCalls = 0;
    while (System.nanoTime() < deadline && !lines.failed()) {
      SessionService.Update update = updates.poll(1, TimeUnit.SECONDS);
      now = System.nanoTime();
      if (update instanceof SessionService.Update.Delivered delivered
          && delivered.inboxSeq() == delivery.inboxSeq()) {
        execution = delivered.executionId();
        started = now;
        news = now;
      } else if (update instanceof SessionService.Update.Entry entry
          && execution != null
          && execution.equals(entry.entry().executionId())) {
        if (entry.entry().kind() == Transcript.Kind.TOOL_USE) {
          toolCalls++;
        }
        lines.write(Map.of("event", "entry", "entry", entry(entry.entry())));
        news = now;
      } else if (update instanceof SessionService.Update.TurnEnded ended
          && ended.executionId().equals(execution)) {
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("execution_id", ended.executionId());
        end.put("status", ended.status().wire());
        end.put("error", ended.error());
        return end;
      }
      if (every > 0 && now - Math.max(news, shown) >= every) {
        // Nothing came for a while: say the turn still runs, or the message still waits for the
        // running one (this also keeps the stream alive).
        Map<String, Object> progress = new LinkedHashMap<>();
        progress.put("queued", execution == null);
        progress.put("execution_id", execution);
        progress.put("elapsed_seconds", TimeUnit.NANOSECONDS.toSeconds(now - started));
        progress.put("quiet_seconds", TimeUnit.NANOSECONDS.toSeconds(now - news));
        progress.put("tool_calls", toolCalls);
        lines.write(Map.of("event", "progress", "progress", progress));
        shown = now;
      }
    }
    Map<String, Object> end = new LinkedHashMap<>();
    end.put("execution_id", execution);
    end.put("status", "following_ended");
    end.put(
        "error",
        "stopped following after " + followLimit.toMinutes() + " min; the turn may still run");
    return end;
  }

  private static Map<String, Object> delivery(SessionService.Delivery delivery) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("status", delivery.status());
    view.put("execution_id", delivery.executionId());
    view.put("inbox_seq", delivery.inboxSeq());
    return view;
  }

  Map<String, Object> view(Session session) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("id", session.id());
    view.put("name", session.name());
    view.put("channel", session.channel());
    view.put("project", session.project());
    view.put("backend", session.backend());
    view.put("model", session.model());
    view.put("mode", session.mode());
    view.put("composition", session.composition().wire());
    view.put("started_by", session.startedBy().wire());
    view.put("tool_allowlist", session.toolAllowlist());
    view.put("working_dir", session.workingDirectory().toString());
    view.put("state", session.state().wire());
    view.put("running_execution", sessions.runningExecution(session.id()));
    view.put("created_at", session.createdAt().toString());
    view.put("updated_at", session.updatedAt().toString());
    return view;
  }

  static Map<String, Object> entry(Transcript.Entry entry) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("seq", entry.seq());
    view.put("execution_id", entry.executionId());
    view.put("kind", entry.kind().wire());
    view.put("body", WireJson.mapper().readTree(entry.body()));
    view.put("at", entry.at().toString());
    return view;
  }

  private static void invalid(Response response, Callback callback, String message) {
    JsonBodies.error(response, callback, 400, SessionException.INVALID_ARGUMENT, message);
  }

  private static void failure(Response response, Callback callback, SessionException e) {
    int status =
        switch (e.code()) {
          case SessionException.NOT_FOUND -> 404;
          case SessionException.BUDGET_EXCEEDED -> 402;
          default -> 400;
        };
    JsonBodies.error(response, callback, status, e.code(), e.getMessage());
  }
}
