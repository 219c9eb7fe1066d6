package dev.cortex.protocol.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Team mode on the webhook: the routes the {@code workers} group's tools call for a main session,
 * and the one the {@code worker-report} group's {@code mark_routine} calls for a worker (with the
 * webhook token, for the calling session); the session API's routes for people; their bodies and
 * answers. A request that breaks a rule cannot be built: its compact constructor throws {@link
 * Sessions.BadRequest} with the sentence the server answers ({@code INVALID_ARGUMENT}).
 */
public final class Team {
  private Team() {}

  public static final String PREFIX = "/webhook/team/";
  public static final String SPAWN = PREFIX + "spawn";
  public static final String SEND = PREFIX + "send";
  public static final String LIST = PREFIX + "list";
  public static final String STOP = PREFIX + "stop";
  public static final String ANSWER = PREFIX + "answer";
  public static final String ROUTINE = PREFIX + "routine";

  public static final String API_PREFIX = "/api/team/";
  public static final String API_LIST = API_PREFIX + "list";
  public static final String API_SEND = API_PREFIX + "send";
  public static final String API_STOP = API_PREFIX + "stop";

  /** The most workers one main session may have. */
  public static final int MAX_WORKERS = 8;

  public static final int MAX_PROMPT = 200_000;
  public static final int MAX_MESSAGE = 200_000;

  /** How much of a worker's last report the roster shows; {@code worker_list WORKER} shows all. */
  public static final int ROSTER_REPORT = 500;

  /** A worker's name within its team: lower-case letters, digits, '-' and '_', 1-32. */
  public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,31}");

  /** A worker's id: {@code wk-} and 12 hex digits. */
  public static final Pattern WORKER_ID = Pattern.compile("wk-[0-9a-f]{12}");

  private static final Pattern MODEL = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@\\[\\]-]{0,127}");
  private static final Pattern BACKEND = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private static void session(String sessionId, String usage) {
    if (sessionId == null || sessionId.isBlank()) {
      throw new Sessions.BadRequest(usage);
    }
  }

  private static String text(String value, String what, int max) {
    if (value == null || value.isBlank()) {
      throw new Sessions.BadRequest(what + " is empty.");
    }
    if (value.length() > max) {
      throw new Sessions.BadRequest(what + " is at most " + max + " characters.");
    }
    return value;
  }

  /** A worker named in a call: its name in the team, or its id. */
  private static void checkWorker(String worker) {
    if (worker == null
        || !(NAME.matcher(worker).matches() || WORKER_ID.matcher(worker).matches())) {
      throw new Sessions.BadRequest(
          "worker is a worker's name (1-32 lower-case letters, digits, '-' or '_') or its id"
              + " (wk- and 12 hex digits).");
    }
  }

  /** {@code worker_spawn}: a new worker of the calling main session, with its first task. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Spawn(String sessionId, String name, String prompt, String backend, String model) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"name\": NAME, \"prompt\": TEXT, \"backend\"?: BACKEND,"
            + " \"model\"?: MODEL}.";

    public Spawn {
      session(sessionId, USAGE);
      if (name == null || !NAME.matcher(name).matches()) {
        throw new Sessions.BadRequest(
            "name is 1-32 lower-case letters, digits, '-' or '_', starting with a letter or"
                + " digit.");
      }
      text(prompt, "prompt", MAX_PROMPT);
      if (model != null && !MODEL.matcher(model).matches()) {
        throw new Sessions.BadRequest("'" + model + "' is not a model name.");
      }
      if (backend != null && !BACKEND.matcher(backend).matches()) {
        throw new Sessions.BadRequest("'" + backend + "' is not a backend name.");
      }
    }
  }

  /** {@code worker_send}: a message to a worker, into its running turn or starting one. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Send(String sessionId, String worker, String message) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"worker\": NAME, \"message\": TEXT}.";

    public Send {
      session(sessionId, USAGE);
      checkWorker(worker);
      text(message, "message", MAX_MESSAGE);
    }
  }

  /** {@code worker_list}: the roster, or one worker ({@code worker}) with its whole last report. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Roster(String sessionId, String worker) {
    public static final String USAGE = "Send {\"session_id\": ID, \"worker\"?: NAME}.";

    public Roster {
      session(sessionId, USAGE);
      if (worker != null) {
        checkWorker(worker);
      }
    }
  }

  /** {@code worker_stop}: stops a worker's current turn. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Stop(String sessionId, String worker) {
    public static final String USAGE = "Send {\"session_id\": ID, \"worker\": NAME}.";

    public Stop {
      session(sessionId, USAGE);
      checkWorker(worker);
    }
  }

  /**
   * {@code worker_answer}: the main session answers a worker's pending question ({@code answers})
   * or plan ({@code approved}, with {@code feedback} when rejected).
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Answer(
      String sessionId,
      String requestId,
      List<Interactions.QuestionAnswer> answers,
      Boolean approved,
      String feedback) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"request_id\": REQUEST, and \"answers\": [{\"selected\"?:"
            + " [LABEL], \"text\"?: TEXT}] for a question, or \"approved\": true|false,"
            + " \"feedback\"?: TEXT for a plan}.";

    public Answer {
      session(sessionId, USAGE);
      if (requestId == null || !Interactions.ID.matcher(requestId).matches()) {
        throw new Sessions.BadRequest(
            "request_id is ia- and 12 hex digits, as the worker's message says.");
      }
      if ((answers == null) == (approved == null)) {
        throw new Sessions.BadRequest(
            "Give answers for a question, or approved (and feedback) for a plan: one of them.");
      }
      answers = answers == null ? null : List.copyOf(answers);
    }
  }

  /** {@code mark_routine}: the calling worker's turn is routine. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Routine(String sessionId) {
    public static final String USAGE = "Send {\"session_id\": ID}.";

    public Routine {
      session(sessionId, USAGE);
    }
  }

  /**
   * A worker as the roster shows it.
   *
   * @param state {@code running} while a turn runs, else {@code idle}
   * @param lastStatus how its last turn ended ({@code completed}, {@code failed}, {@code stopped},
   *     {@code interrupted}), null before the first ended
   * @param lastReport its last turn's final reply or error (cut in the roster)
   * @param unread routine reports the main session has not read yet
   * @param pending the requests (questions, plans) it waits on
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Worker(
      String workerId,
      String name,
      String sessionId,
      String backend,
      String model,
      String state,
      String lastStatus,
      String lastReport,
      String lastReportAt,
      int unread,
      List<String> pending,
      String createdAt) {
    public Worker {
      Objects.requireNonNull(workerId, "workerId");
      Objects.requireNonNull(name, "name");
      pending = List.copyOf(pending);
    }
  }

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Spawned(Worker worker, String status, String message) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Sent(String worker, String status, String message) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listed(List<Worker> workers) {
    public Listed {
      workers = List.copyOf(workers);
    }
  }

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Stopped(String worker, boolean stopped, String message) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Answered(String requestId, String worker, String kind, String state) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Marked(String executionId, String message) {}

  /**
   * A person's reference to a worker (the session API): its id, or its name with the main session's
   * id or name.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ref(String worker, String session, String message) {
    public static final String USAGE =
        "Send {\"worker\": ID or NAME, \"session\"?: MAIN (needed with a NAME), \"message\"?:"
            + " TEXT}.";

    public Ref {
      checkWorker(worker);
      if (!WORKER_ID.matcher(worker).matches() && (session == null || session.isBlank())) {
        throw new Sessions.BadRequest("A worker's name needs its main session: give session too.");
      }
      if (message != null) {
        text(message, "message", MAX_MESSAGE);
      }
    }
  }

  /** The main session a person's listing is of (null: every team's). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listing(String session) {
    public static final String USAGE = "Send {\"session\"?: MAIN}.";
  }

  public static final class Codes {
    private Codes() {}

    public static final String NO_SESSION = "NO_SESSION";
    public static final String NOT_FOUND = "NOT_FOUND";

    /** The calling session is not a team's main session (a worker, a subagent, team mode off). */
    public static final String NOT_A_MAIN = "NOT_A_MAIN";

    /** {@code mark_routine} from a session that is not a worker. */
    public static final String NOT_A_WORKER = "NOT_A_WORKER";

    public static final String NAME_TAKEN = "NAME_TAKEN";
    public static final String TOO_MANY_WORKERS = "TOO_MANY_WORKERS";
    public static final String BUDGET_EXCEEDED = "BUDGET_EXCEEDED";
  }
}
