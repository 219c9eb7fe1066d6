package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.http.JsonBodies;
import dev.cortex.protocol.webhook.Subagents;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.server.Handler;

/**
 * Subagents on the webhook ({@link Subagents}; token and protocol checked like every webhook
 * route): the routes the {@code agent} and {@code agent_stop} tools call for their session. Bodies
 * are read strictly; a rule broken is {@code INVALID_ARGUMENT}, a refusal its stable code.
 */
final class SubagentRoutes {
  private final SubagentService subagents;
  private final JsonRoutes routes;

  SubagentRoutes(SubagentService subagents, String version) {
    this.subagents = subagents;
    this.routes = new JsonRoutes(version);
  }

  /** The handlers by route. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(Subagents.RUN, routes.post(this::run));
    handlers.put(
        Subagents.STOP,
        routes.coded(
            Subagents.Stop.class, Subagents.Stop.USAGE, subagents::stop, SubagentRoutes::status));
    handlers.put(
        Subagents.LIST,
        routes.post(
            (body, request, response, callback) -> {
              Subagents.Listing listing =
                  new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank()
                      ? new Subagents.Listing(null, null)
                      : JsonRoutes.record(
                          body,
                          Subagents.Listing.class,
                          Subagents.Listing.USAGE,
                          response,
                          callback);
              if (listing != null) {
                JsonRoutes.answer(
                    response, callback, () -> subagents.list(listing), SubagentRoutes::status);
              }
            }));
    handlers.put(
        Subagents.SHOW,
        routes.coded(
            Subagents.Ref.class, Subagents.Ref.USAGE, subagents::show, SubagentRoutes::status));
    handlers.put(
        Subagents.API_STOP,
        routes.coded(
            Subagents.Ref.class,
            Subagents.Ref.USAGE,
            subagents::stopFromApi,
            SubagentRoutes::status));
    return handlers;
  }

  /**
   * {@link Subagents#RUN}: a refusal is answered as on every route; once the call runs, the answer
   * streams its {@link Subagents.Progress} lines, then its result. A caller that goes away before
   * the call ends takes its subagents with it.
   */
  private void run(
      byte[] body,
      org.eclipse.jetty.server.Request request,
      org.eclipse.jetty.server.Response response,
      org.eclipse.jetty.util.Callback callback) {
    Subagents.Run run =
        JsonRoutes.record(body, Subagents.Run.class, Subagents.Run.USAGE, response, callback);
    if (run == null) {
      return;
    }
    AtomicBoolean gone = new AtomicBoolean();
    request.addFailureListener(failure -> gone.set(true));
    AtomicReference<JsonRoutes.Lines> stream = new AtomicReference<>();
    Object answer;
    try {
      answer =
          subagents.run(
              run,
              progress -> {
                if (stream.get() == null) {
                  stream.set(JsonRoutes.stream(response));
                }
                if (!stream.get().write(progress)) {
                  gone.set(true);
                }
              },
              () -> !gone.get());
    } catch (CodedException e) {
      if (stream.get() == null) {
        JsonBodies.error(response, callback, status(e.code()), e.code(), e.getMessage());
        return;
      }
      answer = null;
      stream.get().write(Map.of("error", Map.of("code", e.code(), "message", e.getMessage())));
    }
    if (stream.get() == null) {
      JsonRoutes.result(response, callback, answer);
      return;
    }
    try (JsonRoutes.Lines lines = stream.get()) {
      if (answer != null) {
        lines.last(Map.of("result", answer));
      }
      callback.succeeded();
    } catch (java.io.IOException e) {
      callback.failed(e);
    }
  }

  /** The HTTP status of an error code of the subagent routes. */
  static int status(String code) {
    return switch (code) {
      case Subagents.Codes.NOT_FOUND, Subagents.Codes.NO_SESSION -> 404;
      case Subagents.Codes.NO_DELEGATION -> 403;
      case Subagents.Codes.BUDGET_EXCEEDED -> 402;
      case ErrorCodes.UNAVAILABLE -> 503;
      default -> 400;
    };
  }
}
