package dev.cortex.cli.sessions;

import static dev.cortex.cli.sessions.SessionVerbs.attempt;
import static dev.cortex.cli.sessions.SessionVerbs.client;
import static dev.cortex.cli.sessions.SessionVerbs.sendAndFollow;
import static dev.cortex.cli.sessions.SessionVerbs.stop;

import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.protocol.session.Sessions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex sessions} and {@code cortex chat}: agent sessions of the running agent server,
 * through its authenticated API on the webhook ({@link SessionClient}, one per command). Every verb
 * runs through {@link SessionVerbs#attempt}: a refusal prints {@code cortex: CODE: sentence} on
 * stderr and fails the command.
 */
@Command(
    name = "sessions",
    mixinStandardHelpOptions = true,
    description = "Agent sessions of the running agent server: new, list, show, send, stop.")
public final class SessionsCommand implements Callable<Integer> {
  private final Io io;

  public SessionsCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    io.err().println("cortex sessions: say new, list, show, send or stop.");
    return CortexCommand.USAGE;
  }

  /** {@code cortex sessions new}. */
  @Command(
      name = "new",
      mixinStandardHelpOptions = true,
      description = "Start a new session on a cli: channel.")
  public static final class New implements Callable<Integer> {
    private final Io io;

    @Mixin SessionOptions.NewOptions options = new SessionOptions.NewOptions();

    @Option(names = "--json", description = "Print the session as JSON.")
    boolean json;

    public New(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient sessions = client(io);
      return attempt(
          io,
          () -> {
            Sessions.View session = sessions.create(options.request());
            io.out()
                .println(
                    json
                        ? Json.writePretty(session)
                        : session.name()
                            + "  ("
                            + session.id()
                            + ", "
                            + session.channel()
                            + ", backend "
                            + session.backend()
                            + SessionsCommand.model(session)
                            + ")");
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex sessions list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List sessions, most recently active first.")
  public static final class ListSessions implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Option(
        names = "--limit",
        paramLabel = "N",
        defaultValue = "50",
        description = "At most N (1-200; default ${DEFAULT-VALUE}).")
    int limit;

    public ListSessions(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient client = client(io);
      return attempt(
          io,
          () -> {
            List<Sessions.View> sessions = client.list(limit);
            if (json) {
              io.out().println(Json.writePretty(sessions));
              return CortexCommand.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("NAME", "STATE", "BACKEND", "PROJECT", "CHANNEL", "UPDATED"));
            for (Sessions.View s : sessions) {
              rows.add(
                  List.of(
                      s.name(),
                      state(s),
                      s.backend(),
                      s.project() == null ? "-" : s.project(),
                      s.channel(),
                      s.updatedAt()));
            }
            Table.print(io.out(), rows);
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex sessions show SESSION}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a session and a page of its transcript.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "SESSION", description = "Its name or id.")
    String session;

    @Option(
        names = "--after",
        paramLabel = "SEQ",
        defaultValue = "0",
        description = "Transcript entries after this one.")
    long after;

    @Option(
        names = "--limit",
        paramLabel = "N",
        defaultValue = "100",
        description = "At most N entries (1-500).")
    int limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient sessions = client(io);
      return attempt(
          io,
          () -> {
            Sessions.View details = sessions.show(session);
            List<Sessions.Entry> entries = sessions.transcript(session, after, limit);
            if (json) {
              Map<String, Object> shown = new LinkedHashMap<>();
              shown.put("session", details);
              shown.put("entries", entries);
              io.out().println(Json.writePretty(shown));
              return CortexCommand.OK;
            }
            io.out()
                .println(
                    details.name()
                        + "  "
                        + state(details)
                        + (details.planning() ? "  planning" : "")
                        + "  backend "
                        + details.backend()
                        + SessionsCommand.model(details)
                        + "  channel "
                        + details.channel()
                        + (details.project() == null ? "" : "  project " + details.project()));
            entries.forEach(entry -> Transcripts.print(io.out(), entry));
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex sessions send SESSION TEXT}. */
  @Command(
      name = "send",
      mixinStandardHelpOptions = true,
      description = "Send a message to a session's agent and follow the turn that takes it.")
  public static final class Send implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "SESSION", description = "Its name or id.")
    String session;

    @Parameters(
        index = "1",
        paramLabel = "TEXT",
        description = "The message ('-' reads standard input).")
    String text;

    @Option(names = "--no-wait", description = "Return once the message is delivered or queued.")
    boolean noWait;

    @Mixin SessionOptions.FollowOptions follow = new SessionOptions.FollowOptions();

    public Send(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      String message =
          "-".equals(text) ? new String(io.in().readAllBytes(), StandardCharsets.UTF_8) : text;
      SessionClient sessions = client(io);
      return attempt(
          io, () -> sendAndFollow(io, sessions, session, message, !noWait, follow.progressSeconds));
    }
  }

  /** {@code cortex sessions stop SESSION}. */
  @Command(
      name = "stop",
      mixinStandardHelpOptions = true,
      description = "Stop the turn running in a session.")
  public static final class Stop implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "SESSION", description = "Its name or id.")
    String session;

    public Stop(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient sessions = client(io);
      return attempt(io, () -> stop(io, sessions, session));
    }
  }

  /** {@code cortex chat [SESSION]}: a conversation on the terminal. */
  @Command(
      name = "chat",
      mixinStandardHelpOptions = true,
      description = {
        "Talk to an agent session from the terminal: each line you type is a message; the agent's"
            + " text and tool calls show as they come.",
        "Without SESSION a new session is started. /stop stops the running turn, /quit (or end of"
            + " input) leaves; the session stays on the server."
      })
  public static final class Chat implements Callable<Integer> {
    private final Io io;

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "SESSION",
        description = "A session's name or id.")
    String session;

    @Mixin SessionOptions.NewOptions options = new SessionOptions.NewOptions();

    @Mixin SessionOptions.FollowOptions follow = new SessionOptions.FollowOptions();

    public Chat(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
      SessionClient sessions = client(io);
      int opened = attempt(io, () -> open(sessions));
      if (opened != CortexCommand.OK) {
        return opened;
      }
      io.err().println("Type a message; /stop stops a turn, /quit leaves.");
      ChatCards cards = new ChatCards(io, sessions, session);
      ChatInput input =
          new ChatInput(
              io.in(), () -> attempt(io, () -> stop(io, sessions, session)), cards::inline);
      input.start();
      for (String line = prompt(input); line != null; line = prompt(input)) {
        String text = line.strip();
        if (text.isEmpty()) {
          continue;
        }
        if (text.equals("/quit") || text.equals("/exit")) {
          break;
        }
        if (text.equals("/stop")) {
          attempt(io, () -> stop(io, sessions, session));
          continue;
        }
        input.following(true);
        cards.start();
        try {
          attempt(
              io, () -> sendAndFollow(io, sessions, session, text, true, follow.progressSeconds));
        } finally {
          cards.stop();
          input.following(false);
        }
      }
      return CortexCommand.OK;
    }

    /** Starts the chat's session, or finds the one named. */
    private int open(SessionClient sessions) {
      if (session == null) {
        Sessions.View created = sessions.create(options.request());
        session = created.name();
        io.err().println("cortex: new session " + session + " (backend " + created.backend() + ")");
      } else {
        sessions.show(session);
      }
      return CortexCommand.OK;
    }

    private String prompt(ChatInput input) throws InterruptedException {
      io.err().print("> ");
      io.err().flush();
      return input.next();
    }
  }

  /**
   * A session's state as a line shows it: {@code idle} or {@code running}, and {@code waiting
   * (question)} or {@code waiting (plan)} while a person's answer is awaited.
   */
  static String state(Sessions.View session) {
    return session.waitingFor() == null
        ? session.state()
        : "waiting (" + session.waitingFor() + ")";
  }

  /** The model part of a session's line: {@code , model M (provider P, thinking T)}, or nothing. */
  static String model(Sessions.View session) {
    if (session.model() == null) {
      return "";
    }
    List<String> more = new java.util.ArrayList<>();
    if (session.provider() != null) {
      more.add("provider " + session.provider());
    }
    if (session.thinking() != null) {
      more.add("thinking " + session.thinking());
    }
    return ", model "
        + session.model()
        + (more.isEmpty() ? "" : " (" + String.join(", ", more) + ")");
  }
}
