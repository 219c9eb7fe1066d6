package dev.cortex.cli.sessions;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.SessionEvent;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;

/**
 * The session API of the running agent server, as the session verbs call it: a request record in,
 * the answer record out. Errors are {@link CodedException}s: the server's own code and sentence, or
 * {@code UNAVAILABLE} when it cannot be reached or its answer cannot be read.
 */
final class SessionClient {
  /** How long a plain request may take. */
  static final Duration DEADLINE = Duration.ofSeconds(60);

  /**
   * How long a command follows a turn at most: beyond the longest [sessions] max_turn (48 h); the
   * server stops following at the session's own max_turn and 5 minutes.
   */
  static final Duration FOLLOW = Duration.ofHours(49);

  private final AgentServerClient server;

  SessionClient(AgentServerClient server) {
    this.server = server;
  }

  Sessions.View create(Sessions.Create request) {
    return post(Sessions.CREATE, request, Sessions.View.class);
  }

  List<Sessions.View> list(int limit) {
    return post(Sessions.LIST, new Sessions.Listing(limit), Sessions.Listed.class).sessions();
  }

  Sessions.View show(String session) {
    return post(Sessions.SHOW, new Sessions.Ref(session), Sessions.View.class);
  }

  List<Sessions.Entry> transcript(String session, long after, int limit) {
    return post(
            Sessions.TRANSCRIPT, new Sessions.Page(session, after, limit), Sessions.Entries.class)
        .entries();
  }

  /** Stops the turn running in a session; false when none ran. */
  boolean stop(String session) {
    return post(Sessions.STOP, new Sessions.Ref(session), Sessions.Stopped.class).stopped();
  }

  List<Interactions.View> interactions(Interactions.Listing listing) {
    return post(Interactions.LIST, listing, Interactions.Listed.class).interactions();
  }

  Interactions.View interaction(String id) {
    return post(Interactions.SHOW, new Interactions.Ref(id), Interactions.View.class);
  }

  Interactions.View answer(Interactions.Answer answer) {
    return post(Interactions.ANSWER, answer, Interactions.View.class);
  }

  /** Sends without following: what became of the message. */
  Sessions.Delivery deliver(Sessions.Send request) {
    return read(send(request, event -> {}), Sessions.Delivery.class);
  }

  /** Sends and follows the turn that takes the message; {@code events} hears each line of it. */
  Sessions.TurnEnd follow(Sessions.Send request, Consumer<SessionEvent> events) {
    return read(send(request, events), Sessions.TurnEnd.class);
  }

  private JsonNode send(Sessions.Send request, Consumer<SessionEvent> events) {
    return server.follow(
        Sessions.SEND,
        request,
        FOLLOW,
        Cancellation.NONE,
        line -> {
          SessionEvent event = SessionEvent.read(line);
          if (event != null) {
            events.accept(event);
          }
        });
  }

  private <T> T post(String route, Object request, Class<T> answer) {
    return read(server.post(route, request, DEADLINE, Cancellation.NONE, event -> {}), answer);
  }

  private static <T> T read(JsonNode result, Class<T> type) {
    try {
      return WireJson.bind(result, type);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The agent server's answer is not what this cortex expects ("
              + type.getSimpleName()
              + "); restart 'cortex server' from the same installation.");
    }
  }
}
