package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Sessions.BadRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A person in the loop: the questions and plan approvals that a session's agent opens with the
 * {@code interaction} group's tools, kept by the agent server until a person answers, the
 * interaction TTL passes, or the asking call gives up. The tools reach the server by the webhook
 * routes ({@link #ASK}, {@link #PLAN_ENTER}, {@link #PLAN_SUBMIT}, {@link #AWAIT}, {@link
 * #CANCEL}); people by the session API's routes ({@link #LIST}, {@link #SHOW}, {@link #ANSWER}), as
 * {@code cortex interactions} and {@code cortex answer} do. Bodies are read strictly like every
 * session API body: an unknown field is refused, and a request that breaks a rule cannot be built
 * ({@link BadRequest}, answered {@code INVALID_ARGUMENT}).
 */
public final class Interactions {
  private Interactions() {}

  public static final String ASK = "/webhook/interaction/ask";
  public static final String PLAN_ENTER = "/webhook/interaction/plan-enter";
  public static final String PLAN_SUBMIT = "/webhook/interaction/plan-submit";
  public static final String AWAIT = "/webhook/interaction/await";
  public static final String CANCEL = "/webhook/interaction/cancel";

  public static final String PREFIX = "/api/interactions/";
  public static final String LIST = PREFIX + "list";
  public static final String SHOW = PREFIX + "show";
  public static final String ANSWER = PREFIX + "answer";

  /** The form of a request id: {@code ia-} and 12 hex digits. */
  public static final Pattern ID = Pattern.compile("ia-[0-9a-f]{12}");

  public static final int MIN_QUESTIONS = 1;
  public static final int MAX_QUESTIONS = 4;
  public static final int MIN_OPTIONS = 2;
  public static final int MAX_OPTIONS = 4;
  public static final int MAX_HEADER = 12;
  public static final int MAX_QUESTION = 2_000;
  public static final int MAX_LABEL = 200;
  public static final int MAX_DESCRIPTION = 1_000;
  public static final int MAX_ANSWER_TEXT = 10_000;
  public static final int MAX_SUMMARY = 4_000;
  public static final int MAX_REASONING = 4_000;
  public static final int MAX_PATH = 1_000;
  public static final int MAX_BY = 100;

  /** The largest plan file a plan approval takes, in bytes. */
  public static final int MAX_PLAN_BYTES = 256 * 1024;

  /** How long one {@link #AWAIT} may hold its answer at most, in seconds. */
  public static final int MAX_AWAIT_SECONDS = 60;

  /** The most interactions one session may have open at a time. */
  public static final int MAX_OPEN_PER_SESSION = 20;

  /** How long a person has to answer, by default: seed 001's interaction TTL. */
  public static final int DEFAULT_TTL_SECONDS = 30 * 60;

  public static final String QUESTION = "question";
  public static final String PLAN = "plan";

  public static final String OPEN = "open";
  public static final String ANSWERED = "answered";
  public static final String EXPIRED = "expired";
  public static final String CANCELLED = "cancelled";

  /** The levels of a question; {@code warn} is read as {@code warning}. */
  public static final Set<String> LEVELS = Set.of("info", "warning", "error");

  /** Where an answer may come from. */
  public static final Set<String> VIAS =
      Set.of("terminal", "api", "workbench", "slack", "feishu", "team");

  /** An option of a multiple-choice question. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Option(String label, String description) {
    public Option {
      label = checkText(label, "an option's label", 1, MAX_LABEL);
      description =
          description == null ? null : checkText(description, "a description", 0, MAX_DESCRIPTION);
    }
  }

  /**
   * One question: free text without options, else a choice of 2 to 4 options (several with {@code
   * multiSelect}).
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Question(
      String question, String header, List<Option> options, Boolean multiSelect) {
    public Question {
      question = checkText(question, "question", 1, MAX_QUESTION);
      header = header == null ? null : checkText(header, "header", 1, MAX_HEADER);
      if (options != null) {
        if (options.size() < MIN_OPTIONS || options.size() > MAX_OPTIONS) {
          throw new BadRequest(
              "A question has "
                  + MIN_OPTIONS
                  + " to "
                  + MAX_OPTIONS
                  + " options, or none for a free answer; got "
                  + options.size()
                  + ".");
        }
        options = List.copyOf(options);
        Set<String> labels = new HashSet<>();
        for (Option option : options) {
          if (!labels.add(option.label())) {
            throw new BadRequest(
                "Two options of a question have the label '" + option.label() + "'.");
          }
        }
      }
    }

    public boolean multiple() {
      return Boolean.TRUE.equals(multiSelect);
    }
  }

  /**
   * Questions for a person ({@link #ASK}).
   *
   * @param level {@code info} (the default), {@code warning} ({@code warn} too) or {@code error}
   * @param blocking true (the default) when the asking call waits for the answers; false when the
   *     answers are to come as the session's next message
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ask(String sessionId, List<Question> questions, String level, Boolean blocking) {
    public Ask {
      checkSession(sessionId);
      if (questions == null
          || questions.size() < MIN_QUESTIONS
          || questions.size() > MAX_QUESTIONS) {
        throw new BadRequest(
            "questions holds " + MIN_QUESTIONS + " to " + MAX_QUESTIONS + " questions.");
      }
      questions = List.copyOf(questions);
      level = Interactions.level(level);
    }

    public boolean blocks() {
      return blocking == null || blocking;
    }
  }

  /** The level as kept: {@code info} for null, {@code warning} for {@code warn}. */
  public static String level(String level) {
    if (level == null) {
      return "info";
    }
    String name = level.strip().toLowerCase(Locale.ROOT);
    if (name.equals("warn")) {
      name = "warning";
    }
    if (!LEVELS.contains(name)) {
      throw new BadRequest("level is info, warning (or warn) or error, not '" + level + "'.");
    }
    return name;
  }

  /** The session starts planning ({@link #PLAN_ENTER}). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record PlanEnter(String sessionId, String reasoning) {
    public PlanEnter {
      checkSession(sessionId);
      reasoning = reasoning == null ? null : checkText(reasoning, "reasoning", 0, MAX_REASONING);
    }
  }

  /** The answer of {@link #PLAN_ENTER}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record PlanEntered(String sessionId, String enteredAt) {}

  /**
   * A plan for approval ({@link #PLAN_SUBMIT}): the file, relative to the session's working
   * directory (or absolute inside it), at most {@link #MAX_PLAN_BYTES}.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record PlanSubmit(String sessionId, String planFilePath, String summary) {
    public PlanSubmit {
      checkSession(sessionId);
      planFilePath = checkText(planFilePath, "plan_file_path", 1, MAX_PATH);
      summary = summary == null ? null : checkText(summary, "summary", 0, MAX_SUMMARY);
    }
  }

  /**
   * Waits for an interaction of the session to end ({@link #AWAIT}), at most {@code waitSeconds} (0
   * to {@link #MAX_AWAIT_SECONDS}); the answer is the interaction as it stands then.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Await(String sessionId, String id, Integer waitSeconds) {
    public Await {
      checkSession(sessionId);
      checkId(id);
      if (waitSeconds != null && (waitSeconds < 0 || waitSeconds > MAX_AWAIT_SECONDS)) {
        throw new BadRequest("wait_seconds is 0 to " + MAX_AWAIT_SECONDS + ".");
      }
    }

    public int waitOrDefault() {
      return waitSeconds == null ? 0 : waitSeconds;
    }
  }

  /** The asking call gave up ({@link #CANCEL}): an open interaction is cancelled. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Cancel(String sessionId, String id) {
    public Cancel {
      checkSession(sessionId);
      checkId(id);
    }
  }

  /**
   * Interactions ({@link #LIST}): of one session (by id or name) or of all; open ones only unless
   * {@code all}.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listing(String session, Boolean all) {
    public static final String USAGE = "Send {\"session\"?: ID or NAME, \"all\"?: true}.";

    public boolean everyState() {
      return Boolean.TRUE.equals(all);
    }
  }

  /** One interaction by its request id ({@link #SHOW}). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Ref(String id) {
    public static final String USAGE = "Send {\"id\": REQUEST_ID}.";

    public Ref {
      checkId(id);
    }
  }

  /**
   * A person's answer to one question: option labels, free text, or both (free text beside the
   * options, as "other").
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record QuestionAnswer(List<String> selected, String text) {
    public QuestionAnswer {
      selected = selected == null ? List.of() : List.copyOf(selected);
      text = text == null ? null : checkText(text, "an answer's text", 0, MAX_ANSWER_TEXT);
      if (selected.isEmpty() && (text == null || text.isBlank())) {
        throw new BadRequest("Each answer selects an option or says something.");
      }
    }
  }

  /**
   * A person's answer ({@link #ANSWER}): {@code answers}, one per question in order, for a
   * question; {@code approve} (with {@code feedback} when rejecting) for a plan.
   *
   * @param by who answers (at most {@link #MAX_BY} characters); null for {@code person}
   * @param via {@code terminal}, {@code api} (the default), {@code workbench}, {@code slack} or
   *     {@code feishu}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Answer(
      String id,
      List<QuestionAnswer> answers,
      Boolean approve,
      String feedback,
      String by,
      String via) {
    public static final String USAGE =
        "Send {\"id\": REQUEST_ID, \"answers\": [{\"selected\"?: [LABEL], \"text\"?: TEXT}]} for a"
            + " question, {\"id\": REQUEST_ID, \"approve\": true|false, \"feedback\"?: TEXT} for a"
            + " plan.";

    public Answer {
      checkId(id);
      if ((answers == null) == (approve == null)) {
        throw new BadRequest(USAGE);
      }
      answers = answers == null ? null : List.copyOf(answers);
      feedback = feedback == null ? null : checkText(feedback, "feedback", 0, MAX_ANSWER_TEXT);
      if (Boolean.FALSE.equals(approve) && (feedback == null || feedback.isBlank())) {
        throw new BadRequest("A rejected plan needs feedback: say what to change.");
      }
      by = by == null ? "person" : checkText(by, "by", 1, MAX_BY);
      via = via == null ? "api" : via.strip().toLowerCase(Locale.ROOT);
      if (!VIAS.contains(via)) {
        throw new BadRequest("via is terminal, api, workbench, slack, feishu or team.");
      }
    }
  }

  /** A plan as submitted: its file (as given and as found), its text and the summary. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Plan(String path, String file, String content, String summary) {}

  /**
   * What a person answered.
   *
   * @param answers for a question, one per question, in order
   * @param approved for a plan
   * @param feedback for a plan, what the person said
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Answered(
      List<QuestionAnswer> answers,
      Boolean approved,
      String feedback,
      String by,
      String via,
      String at) {}

  /**
   * An interaction as the API shows it.
   *
   * @param kind {@link #QUESTION} or {@link #PLAN}
   * @param state {@link #OPEN}, {@link #ANSWERED}, {@link #EXPIRED} or {@link #CANCELLED}
   * @param questions the questions of a question, else null
   * @param plan the plan of a plan approval, else null
   * @param answer what was answered, null until then
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String id,
      String sessionId,
      String kind,
      String state,
      String level,
      boolean blocking,
      List<Question> questions,
      Plan plan,
      String createdAt,
      String expiresAt,
      String endedAt,
      Answered answer) {
    public View {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(sessionId, "sessionId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(state, "state");
      questions = questions == null ? null : List.copyOf(questions);
    }
  }

  /** The answer of {@link #ASK} and {@link #PLAN_SUBMIT}: the interaction and its TTL. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Opened(View interaction, int ttlSeconds) {}

  /** The answer of {@link #LIST}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Listed(List<View> interactions) {
    public Listed {
      interactions = List.copyOf(interactions);
    }
  }

  /** The codes of interaction requests beside {@code INVALID_ARGUMENT}. */
  public static final class Codes {
    private Codes() {}

    /** No interaction of that id (of the calling session, for the tools). */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** The call came from no session, or from one the server lacks. */
    public static final String NO_SESSION = "NO_SESSION";

    /** Someone answered first. */
    public static final String ALREADY_ANSWERED = "ALREADY_ANSWERED";

    /** Nobody answered within the interaction TTL. */
    public static final String EXPIRED = "EXPIRED";

    /** The asking call gave up before anyone answered. */
    public static final String CANCELLED = "CANCELLED";

    /** The session has {@link #MAX_OPEN_PER_SESSION} interactions open already. */
    public static final String TOO_MANY_OPEN = "TOO_MANY_OPEN";

    /** The plan file is not there, not a regular file, or not readable. */
    public static final String PLAN_NOT_FOUND = "PLAN_NOT_FOUND";

    /** The plan file is outside the session's working directory. */
    public static final String PLAN_OUTSIDE = "PLAN_OUTSIDE";

    /** The plan file is larger than {@link #MAX_PLAN_BYTES}, or not UTF-8 text. */
    public static final String PLAN_UNREADABLE = "PLAN_UNREADABLE";
  }

  private static void checkSession(String sessionId) {
    if (sessionId == null || sessionId.isBlank()) {
      throw new BadRequest("session_id names the calling session.");
    }
  }

  private static void checkId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new BadRequest("id is a request id such as ia-3fa2c1d0e4b5.");
    }
  }

  private static String checkText(String value, String what, int min, int max) {
    if (value == null) {
      throw new BadRequest(what + " is required.");
    }
    if (value.strip().length() < min || value.length() > max) {
      throw new BadRequest(what + " is " + min + " to " + max + " characters.");
    }
    return value;
  }

  /** The labels of {@code options}, in order, for messages. */
  public static List<String> labels(List<Option> options) {
    List<String> labels = new ArrayList<>();
    if (options != null) {
      options.forEach(o -> labels.add(o.label()));
    }
    return labels;
  }
}
