package dev.cortex.server.daemon;

import dev.cortex.protocol.session.Interactions;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;

/**
 * Interactions on the webhook ({@link Interactions}; token and protocol checked like every webhook
 * route): the routes the {@code interaction} group's tools call for their session, and the session
 * API's routes for people (list, show, answer). Bodies are read strictly; a rule broken is {@code
 * INVALID_ARGUMENT}, a refusal its stable code.
 */
final class InteractionRoutes {
  private final InteractionService interactions;
  private final JsonRoutes routes;

  /** What an answer says it came through when the caller names nothing else (null: as it says). */
  private final String via;

  InteractionRoutes(InteractionService interactions, String version) {
    this(interactions, version, null);
  }

  private InteractionRoutes(InteractionService interactions, String version, String via) {
    this.interactions = interactions;
    this.routes = new JsonRoutes(version);
    this.via = via;
  }

  /**
   * The person's routes ({@code /api/interactions/...}) for the workbench's connector: answers
   * there are recorded as given through the workbench.
   */
  Map<String, Handler> workbenchHandlers(String version) {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    new InteractionRoutes(interactions, version, "workbench")
        .handlers()
        .forEach(
            (route, handler) -> {
              if (route.startsWith(Interactions.PREFIX)) {
                handlers.put(route, handler);
              }
            });
    return handlers;
  }

  /** The handlers by route. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Interactions.ASK,
        post(Interactions.Ask.class, "The body is not a question to ask.", interactions::ask));
    handlers.put(
        Interactions.PLAN_ENTER,
        post(
            Interactions.PlanEnter.class,
            "Send {\"session_id\": ID, \"reasoning\"?: TEXT}.",
            interactions::enterPlan));
    handlers.put(
        Interactions.PLAN_SUBMIT,
        post(
            Interactions.PlanSubmit.class,
            "Send {\"session_id\": ID, \"plan_file_path\": PATH, \"summary\"?: TEXT}.",
            interactions::submitPlan));
    handlers.put(
        Interactions.AWAIT,
        post(
            Interactions.Await.class,
            "Send {\"session_id\": ID, \"id\": REQUEST_ID, \"wait_seconds\"?: 0-60}.",
            interactions::await));
    handlers.put(
        Interactions.CANCEL,
        post(
            Interactions.Cancel.class,
            "Send {\"session_id\": ID, \"id\": REQUEST_ID}.",
            interactions::cancel));
    handlers.put(
        Interactions.LIST,
        routes.post(
            (body, request, response, callback) -> {
              Interactions.Listing listing =
                  new String(body, StandardCharsets.UTF_8).isBlank()
                      ? new Interactions.Listing(null, null)
                      : JsonRoutes.record(
                          body,
                          Interactions.Listing.class,
                          Interactions.Listing.USAGE,
                          response,
                          callback);
              if (listing != null) {
                JsonRoutes.answer(
                    response,
                    callback,
                    () -> interactions.list(listing),
                    InteractionRoutes::status);
              }
            }));
    handlers.put(
        Interactions.SHOW,
        post(Interactions.Ref.class, Interactions.Ref.USAGE, ref -> interactions.show(ref.id())));
    handlers.put(
        Interactions.ANSWER,
        post(
            Interactions.Answer.class,
            Interactions.Answer.USAGE,
            answer ->
                interactions.answer(
                    via == null
                        ? answer
                        : new Interactions.Answer(
                            answer.id(),
                            answer.answers(),
                            answer.approve(),
                            answer.feedback(),
                            answer.by(),
                            via))));
    return handlers;
  }

  private <T> Handler post(Class<T> type, String usage, Function<T, Object> work) {
    return routes.coded(type, usage, work, InteractionRoutes::status);
  }

  /** The HTTP status of an error code of the interaction routes. */
  private static int status(String code) {
    return switch (code) {
      case Interactions.Codes.NOT_FOUND, Interactions.Codes.NO_SESSION -> 404;
      case Interactions.Codes.ALREADY_ANSWERED,
          Interactions.Codes.EXPIRED,
          Interactions.Codes.CANCELLED ->
          409;
      case Interactions.Codes.TOO_MANY_OPEN -> 429;
      case dev.cortex.base.ErrorCodes.UNAVAILABLE -> 503;
      default -> 400;
    };
  }
}
