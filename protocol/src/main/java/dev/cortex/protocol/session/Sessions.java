package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The agent server's session API on the webhook, for {@code cortex sessions} and {@code cortex
 * chat}: its routes (POST, with the webhook token and protocol header), the bounds both sides
 * check, a record per request and per answer. Every record travels with all of its fields, nulls
 * included, in snake_case; the server refuses a request field its record does not have ({@code
 * INVALID_ARGUMENT}, naming it). A request that breaks a rule cannot be built: its compact
 * constructor throws {@link BadRequest} with the sentence the server answers ({@code
 * INVALID_ARGUMENT}). The events of a followed turn are {@link SessionEvent}s.
 */
public final class Sessions {
  private Sessions() {}

  /**
   * A project name (what a session, a schedule or a plugin assignment names): 1 to 128 letters,
   * digits and {@code . _ : / -}, starting with a letter or digit.
   */
  public static final Pattern PROJECT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");

  /**
   * A channel: its kind ({@code cli}, {@code web}, {@code slack}, {@code feishu}), a colon, a key.
   */
  public static final Pattern CHANNEL =
      Pattern.compile("(cli|web|slack|feishu):[A-Za-z0-9._:@/-]{1,128}");

  /** Where the session routes live on the webhook. */
  public static final String PREFIX = "/api/sessions/";

  public static final String CREATE = PREFIX + "create";
  public static final String LIST = PREFIX + "list";
  public static final String SHOW = PREFIX + "show";
  public static final String SEND = PREFIX + "send";
  public static final String STOP = PREFIX + "stop";
  public static final String TRANSCRIPT = PREFIX + "transcript";

  /** Every route, in the order the API lists them. */
  public static final List<String> ROUTES = List.of(CREATE, LIST, SHOW, SEND, STOP, TRANSCRIPT);

  /** The most sessions one listing gives, and how many it gives by default. */
  public static final int MAX_LIST = 200;

  public static final int DEFAULT_LIST = 50;

  /** The most transcript entries one page gives, and how many it gives by default. */
  public static final int MAX_PAGE = 500;

  public static final int DEFAULT_PAGE = 100;

  /** How often a followed turn that says nothing gets a progress line, by default, and at most. */
  public static final int PROGRESS_SECONDS = 15;

  public static final int MAX_PROGRESS_SECONDS = 600;

  /** The compositions of a session's MCP server. */
  public static final Set<String> COMPOSITIONS = Set.of("direct", "none");

  /** Who may have started a session. */
  public static final Set<String> STARTERS = Set.of("person", "agent", "schedule", "callback");

  /** How hard a session's model may think. */
  public static final Set<String> THINKING = Set.of("off", "low", "medium", "high");

  /** A request that breaks a rule of the API; the message says which, as the server answers it. */
  public static final class BadRequest extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BadRequest(String message) {
      super(Objects.requireNonNull(message, "message"));
    }
  }

  /**
   * A new session ({@link #CREATE}); every field may be left out.
   *
   * @param name null for {@code cortex-<6 hex>}
   * @param channel null for {@code cli:<name>}
   * @param backend null for the server's {@code [sessions] backend}
   * @param thinking {@code off}, {@code low}, {@code medium} or {@code high}, in any case; null for
   *     the backend's default
   * @param composition {@code direct} (the default) or {@code none}, in any case
   * @param startedBy {@code person} (the default), {@code agent}, {@code schedule} or {@code
   *     callback}, in any case
   * @param program for the {@code command} backend: the program and its arguments
   * @param workingDir an absolute directory; null for the server's user's home
   * @param toolAllowlist the only tools of the session's MCP server; null for all of them
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Create(
      String name,
      String channel,
      String project,
      String backend,
      String model,
      String thinking,
      String mode,
      String composition,
      String startedBy,
      List<String> program,
      String workingDir,
      List<String> toolAllowlist) {
    static final String NAMES =
        "composition is direct or none; started_by is person, agent, schedule or callback.";

    public Create {
      composition = oneOf(composition, COMPOSITIONS);
      thinking = thinking(thinking);
      startedBy = oneOf(startedBy, STARTERS);
      program = copy(program);
      toolAllowlist = copy(toolAllowlist);
    }

    private static String thinking(String value) {
      if (value == null) {
        return null;
      }
      String level = value.strip().toLowerCase(Locale.ROOT);
      if (!THINKING.contains(level)) {
        throw new BadRequest("thinking is off, low, medium or high.");
      }
      return level;
    }

    private static String oneOf(String value, Set<String> names) {
      if (value == null) {
        return null;
      }
      String name = value.strip().toLowerCase(Locale.ROOT);
      if (!names.contains(name)) {
        throw new BadRequest(NAMES);
      }
      return name;
    }
  }

  /** A list as given, unmodifiable; its elements are checked by the server, nulls included. */
  private static List<String> copy(List<String> list) {
    return list == null ? null : Collections.unmodifiableList(new ArrayList<>(list));
  }

  /**
   * Sessions, most recently active first ({@link #LIST}).
   *
   * @param limit 1 to {@link #MAX_LIST}; null for {@link #DEFAULT_LIST}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listing(Integer limit) {
    public Listing {
      if (limit != null && (limit < 1 || limit > MAX_LIST)) {
        throw new BadRequest("limit must be 1 to " + MAX_LIST + ".");
      }
    }

    public int limitOrDefault() {
      return limit == null ? DEFAULT_LIST : limit;
    }
  }

  /** One session by its id or name ({@link #SHOW}, {@link #STOP}). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ref(String session) {
    public static final String USAGE = "Send {\"session\": ID or NAME}.";

    public Ref {
      if (session == null) {
        throw new BadRequest(USAGE);
      }
    }
  }

  /**
   * A page of a session's transcript ({@link #TRANSCRIPT}).
   *
   * @param after the entries after this number; null for 0, from the first
   * @param limit 1 to {@link #MAX_PAGE}; null for {@link #DEFAULT_PAGE}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Page(String session, Long after, Long before, Integer limit) {
    public static final String USAGE =
        "Send {\"session\": ID or NAME, \"after\"?: SEQ or \"before\"?: SEQ, \"limit\"?: N}.";

    public Page {
      if (session == null) {
        throw new BadRequest(USAGE);
      }
      if (limit != null && (limit < 1 || limit > MAX_PAGE) || after != null && after < 0) {
        throw new BadRequest("limit must be 1 to " + MAX_PAGE + " and after 0 or more.");
      }
      if (before != null && (before < 1 || after != null)) {
        throw new BadRequest("before must be 1 or more, and comes without after.");
      }
    }

    /** The page of entries after {@code after}, oldest first. */
    public Page(String session, Long after, Integer limit) {
      this(session, after, null, limit);
    }

    public long afterOrFirst() {
      return after == null ? 0 : after;
    }

    public int limitOrDefault() {
      return limit == null ? DEFAULT_PAGE : limit;
    }
  }

  /**
   * A message for a session's agent ({@link #SEND}).
   *
   * @param follow true to stream the turn that takes the message until it ends; null for false
   * @param progressSeconds while following, a progress line after this many seconds without news (0
   *     to {@link #MAX_PROGRESS_SECONDS}, 0 for none); null for {@link #PROGRESS_SECONDS}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Send(String session, String text, Boolean follow, Integer progressSeconds) {
    public static final String USAGE =
        "Send {\"session\": ID or NAME, \"text\": MESSAGE, \"follow\"?: true,"
            + " \"progress_seconds\"?: 0-"
            + MAX_PROGRESS_SECONDS
            + "}.";

    public Send {
      if (session == null || text == null) {
        throw new BadRequest(USAGE);
      }
      if (progressSeconds != null
          && (progressSeconds < 0 || progressSeconds > MAX_PROGRESS_SECONDS)) {
        throw new BadRequest(
            "progress_seconds must be from 0 (no progress lines) to "
                + MAX_PROGRESS_SECONDS
                + ", not "
                + progressSeconds
                + ".");
      }
    }

    public boolean following() {
      return Boolean.TRUE.equals(follow);
    }

    public int progressOrDefault() {
      return progressSeconds == null ? PROGRESS_SECONDS : progressSeconds;
    }
  }

  /**
   * A session as the API shows it ({@link #CREATE}, {@link #SHOW}).
   *
   * @param state {@code idle} or {@code running}
   * @param runningExecution the execution of the turn running now, or null
   * @param waitingFor what the session waits for a person to answer, or null: {@code question} (a
   *     blocking question) or {@code plan} (a plan approval); see {@link Interactions}
   * @param planning whether the agent entered the planning protocol and no plan of it was approved
   *     yet
   * @param createdAt an ISO-8601 instant, as is {@code updatedAt}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String id,
      String name,
      String channel,
      String project,
      String backend,
      String model,
      String provider,
      String thinking,
      String mode,
      String composition,
      String startedBy,
      List<String> toolAllowlist,
      String workingDir,
      String state,
      String runningExecution,
      String waitingFor,
      boolean planning,
      String createdAt,
      String updatedAt) {
    public View {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(channel, "channel");
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(composition, "composition");
      Objects.requireNonNull(startedBy, "startedBy");
      toolAllowlist = toolAllowlist == null ? null : List.copyOf(toolAllowlist);
      Objects.requireNonNull(workingDir, "workingDir");
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(updatedAt, "updatedAt");
    }
  }

  /** The answer of {@link #LIST}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listed(List<View> sessions) {
    public Listed {
      sessions = List.copyOf(sessions);
    }
  }

  /**
   * One transcript entry.
   *
   * @param seq its place in the session's transcript, from 1
   * @param executionId the turn it belongs to, or null
   * @param kind {@code user}, {@code assistant}, {@code tool_use}, {@code tool_result}, {@code
   *     system} or {@code note}
   * @param body its content, e.g. {@code {"text": ...}}
   * @param at an ISO-8601 instant
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Entry(long seq, String executionId, String kind, JsonNode body, String at) {
    public Entry {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(at, "at");
    }
  }

  /** The answer of {@link #TRANSCRIPT}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Entries(List<Entry> entries) {
    public Entries {
      entries = List.copyOf(entries);
    }
  }

  /** The answer of {@link #STOP}: whether a turn was running (and is stopped now). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Stopped(boolean stopped) {}

  /**
   * What became of a message: the answer of {@link #SEND} without {@code follow}, and the first
   * event of a followed one.
   *
   * @param status {@link #STARTED}, {@link #INJECTED}, {@link #OFFERED}, {@link #QUEUED} or {@link
   *     #DELIVERED}
   * @param executionId the turn that has it (or, offered or queued, the one running), or null
   * @param inboxSeq the message's number in the session's inbox
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Delivery(String status, String executionId, long inboxSeq) {
    /** A new turn started with the message, as its prompt. */
    public static final String STARTED = "started";

    /** The running turn took it: its backend acknowledged it. */
    public static final String INJECTED = "injected";

    /**
     * The running turn was given it and has not acknowledged it yet: it has it once it does, else
     * the next turn takes it.
     */
    public static final String OFFERED = "offered";

    /** The next turn takes it. */
    public static final String QUEUED = "queued";

    /** It had been sent before (a wake of the same key). */
    public static final String DELIVERED = "delivered";

    public Delivery {
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * The end of a followed turn: the answer of {@link #SEND} with {@code follow}.
   *
   * @param executionId the turn, or null when the message never left the inbox
   * @param status the execution's: {@code completed}, {@code failed}, {@code cancelled}; or {@link
   *     #FOLLOWING_ENDED} when the server stopped following a turn that may still run
   * @param error what went wrong, or null
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record TurnEnd(String executionId, String status, String error) {
    public static final String COMPLETED = "completed";
    public static final String FOLLOWING_ENDED = "following_ended";

    public TurnEnd {
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * How a followed turn stands while it says nothing.
   *
   * @param queued whether the message still waits for the running turn
   * @param executionId the turn that took it, or null while queued
   * @param elapsedSeconds since the message was sent or, once a turn took it, since then
   * @param quietSeconds since the turn last said anything
   * @param toolCalls the tool calls streamed so far
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Progress(
      boolean queued, String executionId, long elapsedSeconds, long quietSeconds, int toolCalls) {}
}
