package dev.cortex.server.daemon;

import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.webhook.Team;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Handler;

/**
 * Team mode on the webhook ({@link Team}; token and protocol checked like every webhook route): the
 * routes of the {@code workers} group's tools for a main session and of {@code mark_routine} for a
 * worker, and the session API's for people. Bodies are read strictly; a rule broken is {@code
 * INVALID_ARGUMENT}, a refusal its stable code.
 */
final class TeamRoutes {
  private final TeamService team;
  private final JsonRoutes routes;

  TeamRoutes(TeamService team, String version) {
    this.team = team;
    this.routes = new JsonRoutes(version);
  }

  /** The handlers by route. */
  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Team.SPAWN,
        routes.coded(Team.Spawn.class, Team.Spawn.USAGE, team::spawn, TeamRoutes::status));
    handlers.put(
        Team.SEND, routes.coded(Team.Send.class, Team.Send.USAGE, team::send, TeamRoutes::status));
    handlers.put(
        Team.LIST,
        routes.coded(Team.Roster.class, Team.Roster.USAGE, team::list, TeamRoutes::status));
    handlers.put(
        Team.STOP, routes.coded(Team.Stop.class, Team.Stop.USAGE, team::stop, TeamRoutes::status));
    handlers.put(
        Team.ANSWER,
        routes.coded(Team.Answer.class, Team.Answer.USAGE, team::answer, TeamRoutes::status));
    handlers.put(
        Team.ROUTINE,
        routes.coded(Team.Routine.class, Team.Routine.USAGE, team::routine, TeamRoutes::status));
    handlers.put(
        Team.API_LIST,
        routes.coded(
            Team.Listing.class, Team.Listing.USAGE, team::listForPerson, TeamRoutes::status));
    handlers.put(
        Team.API_SEND,
        routes.coded(Team.Ref.class, Team.Ref.USAGE, team::sendFromPerson, TeamRoutes::status));
    handlers.put(
        Team.API_STOP,
        routes.coded(Team.Ref.class, Team.Ref.USAGE, team::stopFromPerson, TeamRoutes::status));
    return handlers;
  }

  /** The HTTP status of an error code of the team routes. */
  static int status(String code) {
    switch (code) {
      case Team.Codes.NOT_FOUND:
      case Team.Codes.NO_SESSION:
        return 404;
      case Team.Codes.NOT_A_MAIN:
      case Team.Codes.NOT_A_WORKER:
        return 403;
      case Team.Codes.NAME_TAKEN:
      case Team.Codes.TOO_MANY_WORKERS:
      case Interactions.Codes.ALREADY_ANSWERED:
      case Interactions.Codes.EXPIRED:
      case Interactions.Codes.CANCELLED:
        return 409;
      case Team.Codes.BUDGET_EXCEEDED:
        return 402;
      case ErrorCodes.UNAVAILABLE:
        return 503;
      default:
        return 400;
    }
  }
}
