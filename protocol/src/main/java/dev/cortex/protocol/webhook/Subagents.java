package dev.cortex.protocol.webhook;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Sessions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Subagents on the webhook: the routes the {@code agent} and {@code agent_stop} tools call (with
 * the webhook token, for the calling session), their bodies and answers, and the bounds both sides
 * check. A request that breaks a rule cannot be built: its compact constructor throws {@link
 * Sessions.BadRequest} with the sentence the server answers ({@code INVALID_ARGUMENT}).
 */
public final class Subagents {
  private Subagents() {}

  public static final String RUN = "/webhook/subagent/run";
  public static final String STOP = "/webhook/subagent/stop";

  /** The tools a subagent's MCP server never has: no fan-out below a subagent. */
  public static final Set<String> DELEGATION_TOOLS = Set.of("agent", "agent_stop");

  /** The groups a subagent's MCP server never loads (team mode's). */
  public static final Set<String> DELEGATION_GROUPS = Set.of("workers", "worker-report");

  /** The most items of a {@code parallel} or {@code chain} call. */
  public static final int MAX_ITEMS = 8;

  public static final int MAX_DESCRIPTION = 200;
  public static final int MAX_PROMPT = 200_000;

  /** What a chain item's prompt says where the previous item's output goes. */
  public static final String PREVIOUS = "{previous}";

  /** An agent's id: {@code sa-} and 12 hex digits. */
  public static final java.util.regex.Pattern AGENT_ID =
      java.util.regex.Pattern.compile("sa-[0-9a-f]{12}");

  private static final java.util.regex.Pattern NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final java.util.regex.Pattern MODEL =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/@\\[\\]-]{0,127}");

  /**
   * One piece of delegated work.
   *
   * @param subagentType the role that does it (see {@code docs/subagents.md})
   * @param model null for the call's, else the role's, else the backend's default
   * @param backend null for the call's, else the role's, else the parent session's
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Item(
      String description, String prompt, String subagentType, String model, String backend) {
    public Item {
      if (description == null || description.isBlank()) {
        throw new Sessions.BadRequest("Every subagent needs a description (a few words).");
      }
      if (description.length() > MAX_DESCRIPTION) {
        throw new Sessions.BadRequest(
            "A description is at most " + MAX_DESCRIPTION + " characters.");
      }
      if (prompt == null || prompt.isBlank()) {
        throw new Sessions.BadRequest("Every subagent needs a prompt: the task it is to do.");
      }
      if (prompt.length() > MAX_PROMPT) {
        throw new Sessions.BadRequest("A prompt is at most " + MAX_PROMPT + " characters.");
      }
      if (subagentType == null || !NAME.matcher(subagentType).matches()) {
        throw new Sessions.BadRequest(
            "subagent_type names a role: 1-64 letters, digits, '.', '_' or '-'.");
      }
      checkChoice(model, backend);
    }
  }

  private static void checkChoice(String model, String backend) {
    if (model != null && !MODEL.matcher(model).matches()) {
      throw new Sessions.BadRequest("'" + model + "' is not a model name.");
    }
    if (backend != null && !NAME.matcher(backend).matches()) {
      throw new Sessions.BadRequest("'" + backend + "' is not a backend name.");
    }
  }

  /** How a call delegates: one subagent, several at once, or several one after another. */
  public enum Mode {
    SINGLE,
    PARALLEL,
    CHAIN;

    public String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * An {@code agent} call ({@link #RUN}): exactly one of the single fields ({@code description},
   * {@code prompt}, {@code subagent_type}), {@code parallel} or {@code chain}.
   *
   * @param model the default model of its items
   * @param backend the default backend of its items
   * @param runInBackground true to answer at once with the agents' ids; the results come later as a
   *     message to the session
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Run(
      String sessionId,
      String description,
      String prompt,
      String subagentType,
      List<Item> parallel,
      List<Item> chain,
      String model,
      String backend,
      Boolean runInBackground) {
    public static final String USAGE =
        "Send {\"session_id\": ID, and either \"description\", \"prompt\", \"subagent_type\", or"
            + " \"parallel\": [ITEM...], or \"chain\": [ITEM...]; \"model\"?, \"backend\"?,"
            + " \"run_in_background\"?}.";

    public Run {
      if (sessionId == null || sessionId.isBlank()) {
        throw new Sessions.BadRequest(USAGE);
      }
      boolean single = description != null || prompt != null || subagentType != null;
      int modes = (single ? 1 : 0) + (parallel != null ? 1 : 0) + (chain != null ? 1 : 0);
      if (modes == 0) {
        throw new Sessions.BadRequest(
            "Say what to delegate: description, prompt and subagent_type for one subagent,"
                + " parallel for several at once, or chain for several one after another.");
      }
      if (modes > 1) {
        throw new Sessions.BadRequest(
            "Use one mode per call: the single fields (description, prompt, subagent_type),"
                + " parallel or chain, not several.");
      }
      parallel = items(parallel, "parallel");
      chain = items(chain, "chain");
      checkChoice(model, backend);
      if (single) {
        // The same rules as an item's.
        new Item(description, prompt, subagentType, null, null);
      }
    }

    private static List<Item> items(List<Item> items, String mode) {
      if (items == null) {
        return null;
      }
      if (items.isEmpty() || items.size() > MAX_ITEMS) {
        throw new Sessions.BadRequest(mode + " has 1 to " + MAX_ITEMS + " items.");
      }
      for (Item item : items) {
        if (item == null) {
          throw new Sessions.BadRequest(mode + " has an empty item.");
        }
      }
      return Collections.unmodifiableList(new ArrayList<>(items));
    }

    public Mode mode() {
      return parallel != null ? Mode.PARALLEL : chain != null ? Mode.CHAIN : Mode.SINGLE;
    }

    /** The items, in order: the single one, or the list's. */
    public List<Item> items() {
      return switch (mode()) {
        case PARALLEL -> parallel;
        case CHAIN -> chain;
        case SINGLE -> List.of(new Item(description, prompt, subagentType, null, null));
      };
    }

    public boolean background() {
      return Boolean.TRUE.equals(runInBackground);
    }
  }

  /**
   * What became of one subagent.
   *
   * @param agentId its id, for {@code agent_stop}
   * @param sessionId its child session (its transcript is there)
   * @param status {@code running}, {@code completed}, {@code failed}, {@code stopped}, {@code
   *     interrupted} or {@code skipped} (a chain item after one that failed)
   * @param output what it answered (null unless completed)
   * @param costUsd what its turn cost
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Outcome(
      String agentId,
      String description,
      String subagentType,
      String backend,
      String model,
      String sessionId,
      String status,
      String output,
      String error,
      double costUsd) {
    public Outcome {
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * The answer of {@link #RUN}.
   *
   * @param background true when the agents run on and their results come later as a message
   * @param agents one outcome per item, in the items' order
   * @param costUsd what they cost together
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ran(String mode, boolean background, List<Outcome> agents, double costUsd) {
    public Ran {
      agents = List.copyOf(agents);
    }
  }

  /**
   * A line of {@link #RUN}'s streamed answer before its result, while a foreground call runs: as it
   * starts, as each subagent ends, and every {@link #PROGRESS_EVERY} between. The {@code agent}
   * tool turns each into an MCP progress notification.
   *
   * @param done how many of the call's subagents have ended
   * @param total how many it has
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Progress(String event, int done, int total, String message) {
    public static final String EVENT = "progress";

    public Progress(int done, int total, String message) {
      this(EVENT, done, total, message);
    }
  }

  /** How often a running foreground call says it is still running, when nothing ended. */
  public static final java.time.Duration PROGRESS_EVERY = java.time.Duration.ofSeconds(15);

  /** An {@code agent_stop} call ({@link #STOP}). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Stop(String sessionId, String agentId) {
    public static final String USAGE = "Send {\"session_id\": ID, \"agent_id\": AGENT}.";

    public Stop {
      if (sessionId == null || sessionId.isBlank()) {
        throw new Sessions.BadRequest(USAGE);
      }
      if (agentId == null || !AGENT_ID.matcher(agentId).matches()) {
        throw new Sessions.BadRequest("agent_id is sa- and 12 hex digits, as agent answered.");
      }
    }
  }

  /**
   * The answer of {@link #STOP}.
   *
   * @param stopped true when this call stopped it
   * @param status where it stands now
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Stopped(String agentId, boolean stopped, String status, String message) {}

  /** Where the session API's subagent routes live (for {@code cortex agents}). */
  public static final String API_PREFIX = "/api/subagents/";

  public static final String LIST = API_PREFIX + "list";
  public static final String SHOW = API_PREFIX + "show";
  public static final String API_STOP = API_PREFIX + "stop";

  public static final int MAX_LIST = 200;
  public static final int DEFAULT_LIST = 50;

  /** The most entries of a child's transcript that {@link #SHOW} gives. */
  public static final int SHOWN_ENTRIES = 500;

  /**
   * Subagents, oldest first ({@link #LIST}).
   *
   * @param session the parent session (id or name); null for every parent's, newest first
   * @param limit 1 to {@link #MAX_LIST}; null for {@link #DEFAULT_LIST}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listing(String session, Integer limit) {
    public static final String USAGE =
        "Send {\"session\"?: ID or NAME, \"limit\"?: 1-" + MAX_LIST + "}.";

    public Listing {
      if (limit != null && (limit < 1 || limit > MAX_LIST)) {
        throw new Sessions.BadRequest("limit must be 1 to " + MAX_LIST + ".");
      }
    }

    public int limitOrDefault() {
      return limit == null ? DEFAULT_LIST : limit;
    }
  }

  /** One subagent ({@link #SHOW}, {@link #API_STOP}). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ref(String agentId) {
    public static final String USAGE = "Send {\"agent_id\": AGENT}.";

    public Ref {
      if (agentId == null || !AGENT_ID.matcher(agentId).matches()) {
        throw new Sessions.BadRequest("agent_id is sa- and 12 hex digits.");
      }
    }
  }

  /**
   * A subagent as the session API shows it.
   *
   * @param callId the {@code agent} call it belongs to (its items share it)
   * @param parentExecutionId the parent's turn that called, or null
   * @param sessionId its child session
   * @param deliveredAt when a background call's results reached the parent, or null
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String agentId,
      String callId,
      String mode,
      int position,
      String parentSessionId,
      String parentExecutionId,
      String sessionId,
      String description,
      String subagentType,
      String backend,
      String model,
      String status,
      boolean background,
      String output,
      String error,
      double costUsd,
      String createdAt,
      String endedAt,
      String deliveredAt) {
    public View {
      Objects.requireNonNull(agentId, "agentId");
      Objects.requireNonNull(status, "status");
    }
  }

  /** The answer of {@link #LIST}, with what the listed subagents cost together. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listed(List<View> agents, double costUsd) {
    public Listed {
      agents = List.copyOf(agents);
    }
  }

  /** The answer of {@link #SHOW}: the subagent and the first entries of its child's transcript. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Shown(View agent, List<Sessions.Entry> transcript) {
    public Shown {
      Objects.requireNonNull(agent, "agent");
      transcript = List.copyOf(transcript);
    }
  }

  /** The codes of subagent requests beside INVALID_ARGUMENT. */
  public static final class Codes {
    private Codes() {}

    /** The calling MCP server runs outside a session of the agent server. */
    public static final String NO_SESSION = "NO_SESSION";

    /** No subagent of that id belongs to the session. */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** A subagent asked to delegate: no fan-out below a subagent. */
    public static final String NO_DELEGATION = "NO_DELEGATION";

    /** The parent's budget (its project's, or the server's) is spent. */
    public static final String BUDGET_EXCEEDED = "BUDGET_EXCEEDED";
  }
}
