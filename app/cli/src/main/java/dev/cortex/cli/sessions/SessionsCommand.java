package dev.cortex.cli.sessions;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.server.client.AgentServerClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex sessions} and {@code cortex chat}: agent sessions of the running agent server,
 * through its authenticated API on the webhook.
 */
@Command(
    name = "sessions",
    mixinStandardHelpOptions = true,
    description = "Agent sessions of the running agent server: new, list, show, send, stop.")
public final class SessionsCommand implements Callable<Integer> {
  /**
   * How long a command follows a turn at most: beyond the longest [sessions] max_turn (48 h); the
   * server stops following at the session's own max_turn and 5 minutes.
   */
  static final Duration FOLLOW = Duration.ofHours(49);

  private final Io io;

  public SessionsCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    io.err().println("cortex sessions: say new, list, show, send or stop.");
    return CortexCommand.USAGE;
  }

  /** The webhook client of this home's server. */
  static AgentServerClient daemon(Io io) {
    return io.agentServer();
  }

  static JsonNode post(Io io, String route, Object body) {
    return daemon(io)
        .post(
            "/api/sessions/" + route, body, Duration.ofSeconds(60), Cancellation.NONE, event -> {});
  }

  static int failed(Io io, CodedException e) {
    io.err().println("cortex: " + e.code() + ": " + e.getMessage());
    return CortexCommand.FAILED;
  }

  /** Options that describe a new session, shared by {@code sessions new} and {@code chat}. */
  static final class NewOptions {
    @Option(
        names = "--name",
        paramLabel = "NAME",
        description = "The session's name (default cortex-<6 hex>).")
    String name;

    @Option(names = "--project", paramLabel = "PROJECT", description = "The project it works for.")
    String project;

    @Option(
        names = "--backend",
        paramLabel = "BACKEND",
        description = "claude or command (default: [sessions] backend).")
    String backend;

    @Option(names = "--model", paramLabel = "MODEL", description = "The model to ask for.")
    String model;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        description = "The session's mode (CORTEX_MODE; default 'default').")
    String mode;

    @Option(
        names = "--composition",
        paramLabel = "C",
        description = "direct (its MCP server: core, ext, interaction) or none.")
    String composition;

    @Option(
        names = "--cwd",
        paramLabel = "DIR",
        description = "Where its backend runs (default: your home folder).")
    Path cwd;

    @Option(
        names = "--program",
        paramLabel = "ARG",
        arity = "1..*",
        description = "For --backend command: the program and its arguments that run each turn.")
    List<String> program;

    @Option(
        names = "--allow",
        paramLabel = "TOOL",
        split = ",",
        description = "Only these tools on its MCP server (a comma list).")
    List<String> allow;

    Map<String, Object> body() {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("name", name);
      body.put("project", project);
      body.put("backend", backend);
      body.put("model", model);
      body.put("mode", mode);
      body.put("composition", composition);
      body.put("started_by", "person");
      body.put("program", program);
      body.put("working_dir", cwd == null ? null : cwd.toAbsolutePath().toString());
      body.put("tool_allowlist", allow);
      return body;
    }
  }

  /** {@code cortex sessions new}. */
  @Command(
      name = "new",
      mixinStandardHelpOptions = true,
      description = "Start a new session on a cli: channel.")
  public static final class New implements Callable<Integer> {
    private final Io io;

    @picocli.CommandLine.Mixin NewOptions options = new NewOptions();

    @Option(names = "--json", description = "Print the session as JSON.")
    boolean json;

    public New(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      try {
        JsonNode session = post(io, "create", options.body());
        io.out()
            .println(
                json
                    ? Json.writePretty(session)
                    : session.path("name").asString()
                        + "  ("
                        + session.path("id").asString()
                        + ", "
                        + session.path("channel").asString()
                        + ", backend "
                        + session.path("backend").asString()
                        + ")");
        return CortexCommand.OK;
      } catch (CodedException e) {
        return failed(io, e);
      }
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
      try {
        JsonNode sessions = post(io, "list", Map.of("limit", limit)).path("sessions");
        if (json) {
          io.out().println(Json.writePretty(sessions));
          return CortexCommand.OK;
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("NAME", "STATE", "BACKEND", "PROJECT", "CHANNEL", "UPDATED"));
        for (JsonNode s : sessions) {
          rows.add(
              List.of(
                  s.path("name").asString(),
                  s.path("state").asString(),
                  s.path("backend").asString(),
                  s.path("project").asString("-"),
                  s.path("channel").asString(),
                  s.path("updated_at").asString()));
        }
        Table.print(io.out(), rows);
        return CortexCommand.OK;
      } catch (CodedException e) {
        return failed(io, e);
      }
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
      try {
        JsonNode details = post(io, "show", Map.of("session", session));
        JsonNode entries =
            post(io, "transcript", Map.of("session", session, "after", after, "limit", limit))
                .path("entries");
        if (json) {
          io.out().println(Json.writePretty(Map.of("session", details, "entries", entries)));
          return CortexCommand.OK;
        }
        io.out()
            .println(
                details.path("name").asString()
                    + "  "
                    + details.path("state").asString()
                    + "  backend "
                    + details.path("backend").asString()
                    + "  channel "
                    + details.path("channel").asString()
                    + (details.path("project").isNull()
                        ? ""
                        : "  project " + details.path("project").asString()));
        for (JsonNode entry : entries) {
          Transcripts.print(io.out(), entry);
        }
        return CortexCommand.OK;
      } catch (CodedException e) {
        return failed(io, e);
      }
    }
  }

  /** How a followed turn shows that it still runs. */
  static final class FollowOptions {
    @Option(
        names = "--progress",
        paramLabel = "SECONDS",
        defaultValue = "15",
        description =
            "While a turn says nothing, a line on stderr every SECONDS saying it still runs"
                + " (0-600, default 15; 0: none).")
    int progressSeconds;
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

    @picocli.CommandLine.Mixin FollowOptions follow = new FollowOptions();

    public Send(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      String message =
          "-".equals(text) ? new String(io.in().readAllBytes(), StandardCharsets.UTF_8) : text;
      try {
        return sendAndFollow(io, session, message, !noWait, follow.progressSeconds);
      } catch (CodedException e) {
        return failed(io, e);
      }
    }
  }

  /** Sends and, when asked, prints the turn's entries as they come; 0 when it completed. */
  static int sendAndFollow(
      Io io, String session, String text, boolean follow, int progressSeconds) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("session", session);
    body.put("text", text);
    body.put("follow", follow);
    body.put("progress_seconds", progressSeconds);
    JsonNode end =
        daemon(io)
            .follow(
                "/api/sessions/send",
                body,
                FOLLOW,
                Cancellation.NONE,
                event -> {
                  if ("entry".equals(event.path("event").asString(""))
                      && !"user".equals(event.path("entry").path("kind").asString(""))) {
                    Transcripts.print(io.out(), event.path("entry"));
                  } else if ("progress".equals(event.path("event").asString(""))) {
                    io.err().println(progress(event.path("progress")));
                  } else if ("delivery".equals(event.path("event").asString(""))
                      && "queued".equals(event.path("delivery").path("status").asString(""))) {
                    io.err().println("(queued: a turn is running; yours comes next)");
                  }
                });
    if (!follow) {
      io.out().println(end.path("status").asString() + " " + end.path("execution_id").asString(""));
      return CortexCommand.OK;
    }
    String status = end.path("status").asString("");
    if (!status.equals("completed")) {
      io.err()
          .println(
              "cortex: the turn ended "
                  + status
                  + (end.path("error").isString() ? ": " + end.path("error").asString() : ""));
      return CortexCommand.FAILED;
    }
    return CortexCommand.OK;
  }

  /** A progress line: "… still working: 2 min 5 s, 3 tool calls". */
  static String progress(JsonNode progress) {
    long seconds = progress.path("elapsed_seconds").asLong();
    String elapsed = seconds < 60 ? seconds + " s" : seconds / 60 + " min " + seconds % 60 + " s";
    if (progress.path("queued").asBoolean()) {
      return "… still queued behind the running turn (" + elapsed + ")";
    }
    int calls = progress.path("tool_calls").asInt();
    return "… still working: "
        + elapsed
        + ", "
        + calls
        + (calls == 1 ? " tool call" : " tool calls")
        + " so far";
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
      try {
        boolean stopped = post(io, "stop", Map.of("session", session)).path("stopped").asBoolean();
        io.err().println(stopped ? "cortex: the turn was stopped" : "cortex: no turn was running");
        return stopped ? CortexCommand.OK : CortexCommand.FAILED;
      } catch (CodedException e) {
        return failed(io, e);
      }
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

    @picocli.CommandLine.Mixin NewOptions options = new NewOptions();

    @picocli.CommandLine.Mixin FollowOptions follow = new FollowOptions();

    public Chat(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      try {
        if (session == null) {
          JsonNode created = post(io, "create", options.body());
          session = created.path("name").asString();
          io.err()
              .println(
                  "cortex: new session "
                      + session
                      + " (backend "
                      + created.path("backend").asString()
                      + ")");
        } else {
          post(io, "show", Map.of("session", session));
        }
        io.err().println("Type a message; /stop stops a turn, /quit leaves.");
        ChatInput input = new ChatInput(io.in(), this::stop).start();
        for (String line = prompt(input); line != null; line = prompt(input)) {
          String text = line.strip();
          if (text.isEmpty()) {
            continue;
          }
          if (text.equals("/quit") || text.equals("/exit")) {
            break;
          }
          if (text.equals("/stop")) {
            stop();
            continue;
          }
          input.following(true);
          try {
            sendAndFollow(io, session, text, true, follow.progressSeconds);
          } catch (CodedException e) {
            io.err().println("cortex: " + e.code() + ": " + e.getMessage());
          } finally {
            input.following(false);
          }
        }
        return CortexCommand.OK;
      } catch (CodedException e) {
        return failed(io, e);
      }
    }

    private void stop() {
      try {
        boolean stopped = post(io, "stop", Map.of("session", session)).path("stopped").asBoolean();
        io.err().println(stopped ? "cortex: the turn was stopped" : "cortex: no turn was running");
      } catch (CodedException e) {
        io.err().println("cortex: " + e.code() + ": " + e.getMessage());
      }
    }

    private String prompt(ChatInput input) throws InterruptedException {
      io.err().print("> ");
      io.err().flush();
      return input.next();
    }
  }
}
