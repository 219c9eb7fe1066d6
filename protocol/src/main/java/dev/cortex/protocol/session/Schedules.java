package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The schedule routes of the session API ({@code /api/schedules/...}), which {@code cortex
 * schedule} calls, and the callback route of the webhook ({@link #CALLBACK}), which {@code cortex
 * callback} and scripts call. Requests are strict; one that breaks a rule cannot be built ({@link
 * Sessions.BadRequest}); what needs the clock or the cron reader (a zone, an expression, an
 * instant) is checked by the server, before anything is written.
 */
public final class Schedules {
  private Schedules() {}

  public static final String PREFIX = "/api/schedules/";
  public static final String ADD = PREFIX + "add";
  public static final String LIST = PREFIX + "list";
  public static final String SHOW = PREFIX + "show";
  public static final String PAUSE = PREFIX + "pause";
  public static final String RESUME = PREFIX + "resume";
  public static final String REMOVE = PREFIX + "remove";
  public static final String RUN_NOW = PREFIX + "run-now";

  /** Starts a turn from outside: a workflow run that ended, a job, a script. */
  public static final String CALLBACK = "/webhook/callback";

  public static final int MAX_PROMPT = 100_000;
  public static final int MAX_FIELD = 4_000;

  /**
   * A new schedule: exactly one timing ({@code every}, {@code daily}, {@code weekly}, {@code cron}
   * or {@code at}), at most one target ({@code session} or {@code channel}; neither: a fresh
   * session each fire).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Add(
      String project,
      String prompt,
      String every,
      String daily,
      String weekly,
      String cron,
      String at,
      String zone,
      String session,
      String channel,
      String backend,
      String model,
      String overlap,
      String missed,
      String grace,
      String check,
      String checkTimeout,
      String workingDirectory,
      List<String> program,
      Boolean paused) {
    public static final String USAGE =
        "Send {\"prompt\": TEXT, one of \"every\" (30m), \"daily\" (09:00), \"weekly\""
            + " (mon,fri@09:00), \"cron\" (0 9 * * 1-5), \"at\" (an instant); \"zone\"?,"
            + " \"project\"?, \"session\"? or \"channel\"?, \"backend\"?, \"model\"?,"
            + " \"overlap\"? (skip|queue|parallel), \"missed\"? (run-late|skip), \"grace\"?,"
            + " \"check\"?, \"check_timeout\"?, \"working_directory\"?, \"program\"?, \"paused\"?}.";

    public Add {
      if (prompt == null || prompt.isBlank()) {
        throw new Sessions.BadRequest("prompt is required: what the agent is asked each time.");
      }
      if (prompt.length() > MAX_PROMPT) {
        throw new Sessions.BadRequest("prompt is at most 100,000 characters.");
      }
      int timings = 0;
      for (String timing : new String[] {every, daily, weekly, cron, at}) {
        if (timing != null) {
          timings++;
          text("the timing", timing);
        }
      }
      if (timings != 1) {
        throw new Sessions.BadRequest(
            "Give exactly one timing: every, daily, weekly, cron or at. " + USAGE);
      }
      if (session != null && channel != null) {
        throw new Sessions.BadRequest("Give session or channel, not both.");
      }
      for (String field :
          new String[] {
            project,
            zone,
            session,
            channel,
            backend,
            model,
            overlap,
            missed,
            grace,
            check,
            checkTimeout,
            workingDirectory
          }) {
        if (field != null) {
          text("a field", field);
        }
      }
      if (program != null) {
        if (program.isEmpty() || program.size() > 64) {
          throw new Sessions.BadRequest("program is 1 to 64 arguments.");
        }
        program.forEach(arg -> text("an argument of program", arg));
        program = List.copyOf(program);
      }
    }

    private static void text(String what, String value) {
      if (value.isBlank() || value.length() > MAX_FIELD) {
        throw new Sessions.BadRequest(what + " is 1 to " + MAX_FIELD + " characters.");
      }
    }
  }

  /** {@link #LIST}: the schedules of {@code project}, or all. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Listing(String project) {
    public static final String USAGE = "Send {\"project\"?: PROJECT}.";
  }

  /** One schedule. */
  public record Ref(String id) {
    public static final String USAGE = "Send {\"id\": SCHEDULE}.";

    public Ref {
      if (id == null || !id.matches("sch-[0-9a-f]{12}")) {
        throw new Sessions.BadRequest("id names a schedule (sch-...). " + USAGE);
      }
    }
  }

  /** A schedule as the server has it. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String id,
      String project,
      String prompt,
      String timing,
      String target,
      String backend,
      String model,
      String overlap,
      String missed,
      long graceSeconds,
      String check,
      Long checkTimeoutSeconds,
      String workingDirectory,
      boolean paused,
      String nextDue,
      String createdAt) {}

  /** What became of one due time. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record FireView(
      long id,
      String dueAt,
      String state,
      String reason,
      Integer checkExit,
      String checkTail,
      String sessionId,
      String executionId,
      String outcome,
      String startedAt) {}

  public record Listed(List<View> schedules) {}

  public record Detail(View schedule, List<FireView> fires) {}

  public record Fired(String id, long fire) {}

  public record Removed(String id, boolean removed) {}

  /**
   * {@link #CALLBACK}: {@code text} for the session {@code session} (an id or name), or a fresh
   * session when none is named (in {@code project}, on {@code backend}); {@code source} says where
   * it comes from ({@code workflow:run-42}), and {@code key}, when given, makes a second call with
   * it the same message.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Callback(
      String source,
      String text,
      String session,
      String project,
      String backend,
      String workingDirectory,
      List<String> program,
      String key) {
    public static final String USAGE =
        "Send {\"source\": WHERE (workflow:run-42), \"text\": MESSAGE, \"session\"?: ID or NAME,"
            + " \"project\"?, \"backend\"?, \"working_directory\"?, \"program\"?, \"key\"?}.";

    public Callback {
      if (source == null || !source.matches("[A-Za-z0-9][A-Za-z0-9._:/@-]{0,127}")) {
        throw new Sessions.BadRequest(
            "source is 1 to 128 letters, digits and . _ : / @ - (workflow:run-42). " + USAGE);
      }
      if (text == null || text.isBlank() || text.length() > MAX_PROMPT) {
        throw new Sessions.BadRequest("text is 1 to 100,000 characters. " + USAGE);
      }
      if (key != null && !key.matches("[A-Za-z0-9._:/@-]{1,128}")) {
        throw new Sessions.BadRequest("key is 1 to 128 letters, digits and . _ : / @ -.");
      }
      if (program != null) {
        program = List.copyOf(program);
      }
    }
  }

  /** What a callback did: the session it went to and what became of the message. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Called(String sessionId, String status, String executionId) {}
}
