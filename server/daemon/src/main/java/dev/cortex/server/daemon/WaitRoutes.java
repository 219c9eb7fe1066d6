package dev.cortex.server.daemon;

import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.waitpoints.Recipes;
import dev.cortex.server.waitpoints.WaitException;
import dev.cortex.server.waitpoints.Waitpoints;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Waitpoints on the webhook: create, check and cancel for the {@code wait_*} tools (behind the
 * webhook token, for the session the body names), and {@code POST /webhook/signal} for outside
 * programs, which is authorised by the waitpoint's secret alone — deliberately not by the webhook
 * token, which can run commands on every device. Signals refused for an unknown id or a wrong
 * secret are counted; once a minute holds too many, further such refusals are answered {@code
 * RATE_LIMITED}, which tells a guesser nothing, while good signals go on being taken.
 */
final class WaitRoutes {
  /** Refused signals a minute may hold before refusals are rate-limited. */
  static final int MAX_REFUSALS_PER_MINUTE = 30;

  private final Waitpoints waitpoints;
  private final JsonRoutes routes;
  private final Supplier<Set<String>> devices;
  private final Function<String, Recipes.Device> device;
  private final Supplier<String> launcher;
  private final String home;
  private final IntSupplier port;
  private final Clock clock;
  private final Deque<Instant> refusals = new ArrayDeque<>();

  WaitRoutes(
      Waitpoints waitpoints,
      String version,
      Supplier<Set<String>> devices,
      Function<String, Recipes.Device> device,
      Supplier<String> launcher,
      String home,
      IntSupplier port,
      Clock clock) {
    this.waitpoints = waitpoints;
    this.routes = new JsonRoutes(version);
    this.devices = devices;
    this.device = device;
    this.launcher = launcher;
    this.home = home;
    this.port = port;
    this.clock = clock;
  }

  /** The token-guarded handlers, by route. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Waits.CREATE,
        routes.post(
            (body, request, response, callback) -> {
              Waits.Create create =
                  JsonRoutes.read(
                      body,
                      Waits.Create.class,
                      "The body is not a waitpoint to create.",
                      response,
                      callback);
              if (create == null) {
                return;
              }
              answer(
                  response,
                  callback,
                  () -> {
                    Waitpoints.Created created = waitpoints.create(create, devices.get());
                    Recipes.Device on =
                        created.waitpoint().device() == null
                            ? null
                            : device.apply(created.waitpoint().device());
                    return new Waits.Created(
                        waitpoints.view(created.waitpoint()),
                        created.secret(),
                        Recipes.of(
                            created.waitpoint(),
                            created.secret(),
                            new Recipes.Local(launcher.get(), home, port.getAsInt()),
                            on));
                  });
            }));
    handlers.put(
        Waits.CHECK,
        routes.post(
            (body, request, response, callback) -> {
              Waits.Check check =
                  JsonRoutes.read(
                      body,
                      Waits.Check.class,
                      "Send {\"session_id\": ID, \"id\"?: WAITPOINT}.",
                      response,
                      callback);
              if (check == null) {
                return;
              }
              answer(
                  response,
                  callback,
                  () -> new Waits.Checked(waitpoints.check(check.sessionId(), check.id())));
            }));
    handlers.put(
        Waits.CANCEL,
        routes.post(
            (body, request, response, callback) -> {
              Waits.Cancel cancel =
                  JsonRoutes.read(
                      body,
                      Waits.Cancel.class,
                      "Send {\"session_id\": ID, \"id\": WAITPOINT}.",
                      response,
                      callback);
              if (cancel == null) {
                return;
              }
              answer(response, callback, () -> waitpoints.cancel(cancel.sessionId(), cancel.id()));
            }));
    return handlers;
  }

  private static final String SIGNAL_USAGE =
      "Send {\"id\": WAITPOINT, \"secret\": SECRET, \"status\"?: \"ok\"|\"fail\"|\"progress\","
          + " \"message\"?: TEXT, \"member\"?: NAME, \"data\"?: JSON, \"signal_id\"?: ID}.";

  /** {@code POST /webhook/signal}. */
  Handler signal() {
    return routes.post(
        (body, request, response, callback) -> {
          Signals.Signal signal =
              JsonRoutes.read(body, Signals.Signal.class, SIGNAL_USAGE, response, callback);
          if (signal == null) {
            return;
          }
          try {
            String agent = request.getHeaders().get("User-Agent");
            String via = agent != null && agent.startsWith(Signals.CLI_AGENT) ? "cli" : "http";
            JsonRoutes.result(response, callback, waitpoints.signal(signal, via));
          } catch (WaitException e) {
            if ((e.code().equals(Signals.Codes.UNKNOWN_WAITPOINT)
                    || e.code().equals(Signals.Codes.BAD_SECRET))
                && !refused()) {
              JsonBodies.error(
                  response,
                  callback,
                  429,
                  Signals.Codes.RATE_LIMITED,
                  "Too many signals for unknown waitpoints or with wrong secrets in the last"
                      + " minute; this one is refused too. Try again in a minute.");
              return;
            }
            failure(response, callback, e);
          }
        });
  }

  /**
   * Counts a refusal; false when the last minute holds too many already (the refusal is then
   * answered RATE_LIMITED, saying nothing of the id or the secret).
   */
  private synchronized boolean refused() {
    Instant now = clock.instant();
    Instant since = now.minus(Duration.ofMinutes(1));
    while (!refusals.isEmpty() && refusals.peekFirst().isBefore(since)) {
      refusals.removeFirst();
    }
    if (refusals.size() >= MAX_REFUSALS_PER_MINUTE) {
      return false;
    }
    refusals.addLast(now);
    return true;
  }

  private static void answer(Response response, Callback callback, Supplier<Object> work) {
    try {
      JsonRoutes.result(response, callback, work.get());
    } catch (WaitException e) {
      failure(response, callback, e);
    }
  }

  static void failure(Response response, Callback callback, WaitException e) {
    int status =
        switch (e.code()) {
          case Signals.Codes.UNKNOWN_WAITPOINT, Waits.Codes.NOT_FOUND -> 404;
          case Signals.Codes.BAD_SECRET -> 403;
          case Signals.Codes.RATE_LIMITED -> 429;
          default -> 400;
        };
    JsonBodies.error(response, callback, status, e.code(), e.getMessage());
  }
}
