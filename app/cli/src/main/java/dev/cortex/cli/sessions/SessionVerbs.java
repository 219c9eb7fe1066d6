package dev.cortex.cli.sessions;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.protocol.session.SessionEvent;
import dev.cortex.protocol.session.Sessions;

/**
 * What the session verbs share: one way to run a verb and report its refusal, sending (and
 * following) a message, and stopping a turn.
 */
public final class SessionVerbs {
  private SessionVerbs() {}

  /** A verb's work on the session API; its exit code. */
  @FunctionalInterface
  public interface Call {
    int run();
  }

  /**
   * Runs {@code call}; a refusal (the server's, or a request that breaks a rule of the API) is
   * printed as {@code cortex: CODE: sentence} and exits {@link CortexCommand#FAILED}.
   */
  public static int attempt(Io io, Call call) {
    try {
      return call.run();
    } catch (CodedException e) {
      return failed(io, e.code(), e.getMessage());
    } catch (Sessions.BadRequest e) {
      return failed(io, ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
  }

  private static int failed(Io io, String code, String message) {
    io.err().println("cortex: " + code + ": " + message);
    return CortexCommand.FAILED;
  }

  /** The client of this home's server, for one command. */
  static SessionClient client(Io io) {
    return new SessionClient(io.agentServer());
  }

  /** Sends and, when asked, prints the turn's entries as they come; 0 when it completed. */
  static int sendAndFollow(
      Io io, SessionClient sessions, String session, String text, boolean follow, int progress) {
    Sessions.Send request = new Sessions.Send(session, text, follow, progress);
    if (!follow) {
      Sessions.Delivery delivery = sessions.deliver(request);
      io.out()
          .println(
              delivery.status()
                  + " "
                  + (delivery.executionId() == null ? "" : delivery.executionId()));
      return CortexCommand.OK;
    }
    Sessions.TurnEnd end = sessions.follow(request, event -> show(io, event));
    if (!end.status().equals(Sessions.TurnEnd.COMPLETED)) {
      io.err()
          .println(
              "cortex: the turn ended "
                  + end.status()
                  + (end.error() == null ? "" : ": " + end.error()));
      return CortexCommand.FAILED;
    }
    return CortexCommand.OK;
  }

  /**
   * An event of a followed turn: its entries (but the message itself) on stdout, news on stderr.
   */
  private static void show(Io io, SessionEvent event) {
    if (event instanceof SessionEvent.Recorded recorded
        && !recorded.entry().kind().equals("user")) {
      Transcripts.print(io.out(), recorded.entry());
    } else if (event instanceof SessionEvent.Progressed progressed) {
      io.err().println(progress(progressed.progress()));
    } else if (event instanceof SessionEvent.Delivered delivered
        && delivered.delivery().status().equals(Sessions.Delivery.QUEUED)) {
      io.err().println("(queued: a turn is running; yours comes next)");
    }
  }

  /** A progress line: "… still working: 2 min 5 s, 3 tool calls". */
  static String progress(Sessions.Progress progress) {
    long seconds = progress.elapsedSeconds();
    String elapsed = seconds < 60 ? seconds + " s" : seconds / 60 + " min " + seconds % 60 + " s";
    if (progress.queued()) {
      return "… still queued behind the running turn (" + elapsed + ")";
    }
    int calls = progress.toolCalls();
    return "… still working: "
        + elapsed
        + ", "
        + calls
        + (calls == 1 ? " tool call" : " tool calls")
        + " so far";
  }

  /** Stops the turn running in a session and says whether one ran; 0 when one was stopped. */
  static int stop(Io io, SessionClient sessions, String session) {
    boolean stopped = sessions.stop(session);
    io.err().println(stopped ? "cortex: the turn was stopped" : "cortex: no turn was running");
    return stopped ? CortexCommand.OK : CortexCommand.FAILED;
  }
}
