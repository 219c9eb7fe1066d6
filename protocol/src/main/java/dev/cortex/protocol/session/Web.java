package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.session.Sessions.BadRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code web} group's deliveries into a {@code web:} session's conversation: files, views,
 * decisions and boards. The tools reach the agent server by the webhook routes ({@link #SEND_FILE},
 * {@link #SEND_VIEW}, {@link #SEND_DECISION}, {@link #BOARD_OPEN}); the workbench and the CLI by
 * the API routes under {@link #API}. Bodies are read strictly: an unknown field is refused, and a
 * request that breaks a rule cannot be built ({@link BadRequest}, answered {@code
 * INVALID_ARGUMENT}).
 */
public final class Web {
  private Web() {}

  public static final String SEND_FILE = "/webhook/web/send-file";
  public static final String SEND_VIEW = "/webhook/web/send-view";
  public static final String SEND_DECISION = "/webhook/web/send-decision";
  public static final String BOARD_OPEN = "/webhook/web/board-open";

  /** The board bound to the calling session, for {@code cortex_context}. */
  public static final String BOARD_OF = "/webhook/web/board-of";

  public static final String API = "/api/web/";
  public static final String VIEWS_WIDTH = API + "views/width";
  public static final String DECISIONS_SHOW = API + "decisions/show";
  public static final String DECISIONS_ACT = API + "decisions/act";
  public static final String BOARDS_LIST = API + "boards/list";
  public static final String BOARDS_SHOW = API + "boards/show";

  /** The GET routes of the workbench's connector (path specs). */
  public static final String FILES = API + "files/*";

  public static final String VIEWS = API + "views/*";

  public static final int MAX_FILES = 20;
  public static final long MAX_FILE_BYTES = 100L * 1024 * 1024;
  public static final int MAX_CAPTION = 2_000;
  public static final int MAX_PATH = 4_096;
  public static final int MAX_FILE_NAME = 255;
  public static final int MAX_DEVICE = 128;
  public static final int MAX_VIEW_TITLE = 200;
  public static final int MAX_HTML_BYTES = 256 * 1024;
  public static final int MAX_VIEW_FILE_BYTES = 2 * 1024 * 1024;
  public static final int MIN_HEIGHT = 160;
  public static final int MAX_HEIGHT = 900;
  public static final int DEFAULT_HEIGHT = 360;
  public static final String DEFAULT_WIDTH = "wide";
  public static final Set<String> WIDTHS = Set.of("narrow", "wide", "full");
  public static final int MAX_DECISIONS = 10;
  public static final int MAX_DECISION_TITLE = 120;
  public static final int MAX_DECISION_TEXT = 1_000;
  public static final int MAX_BOARD_TITLE = 120;
  public static final int MAX_BOARD_REF = 200;
  public static final int MAX_ACT_TEXT = 2_000;

  public static final Set<String> ACTIONS = Set.of("approve", "explain", "change");

  /** An attachment id: {@code att_} and 16 hex digits. */
  public static final Pattern ATTACHMENT_ID = Pattern.compile("att_[0-9a-f]{16}");

  /** A board id: {@code brd_} and 12 hex digits. */
  public static final Pattern BOARD_ID = Pattern.compile("brd_[0-9a-f]{12}");

  /** One file to send: its path, and the name the person sees (the path's last part if null). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record FileRef(String filePath, String fileName) {
    public FileRef {
      filePath = text(filePath, "file_path", 1, MAX_PATH);
      fileName = fileName == null ? null : checkFileName(fileName);
    }
  }

  /**
   * Files for the person ({@link #SEND_FILE}): exactly one of {@code filePath} and {@code files} (1
   * to {@link #MAX_FILES}); read on {@code device} when given, else on the server's machine.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record SendFile(
      String sessionId,
      String filePath,
      List<FileRef> files,
      String fileName,
      String caption,
      String device) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"file_path\": PATH} or {\"session_id\": ID, \"files\":"
            + " [{\"file_path\": PATH, \"file_name\"?: NAME}]}, with \"caption\"? and \"device\"?.";

    public SendFile {
      session(sessionId);
      if ((filePath == null) == (files == null)) {
        throw new BadRequest("Give exactly one of file_path and files.");
      }
      if (files != null) {
        if (files.isEmpty() || files.size() > MAX_FILES) {
          throw new BadRequest(
              "files holds 1 to " + MAX_FILES + " files; got " + files.size() + ".");
        }
        for (FileRef f : files) {
          if (f == null) {
            throw new BadRequest("files holds objects {\"file_path\", \"file_name\"?}.");
          }
        }
        if (fileName != null) {
          throw new BadRequest("file_name goes with file_path; with files, name each file.");
        }
        files = List.copyOf(files);
      } else {
        new FileRef(filePath, fileName);
      }
      caption = caption == null ? null : text(caption, "caption", 0, MAX_CAPTION);
      device = device == null ? null : text(device, "device", 1, MAX_DEVICE);
    }

    /** The files to send, one or several. */
    public List<FileRef> refs() {
      return files != null ? files : List.of(new FileRef(filePath, fileName));
    }
  }

  /**
   * A view for the person ({@link #SEND_VIEW}): a page of HTML, given inline or as a file of the
   * session's working directory.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record SendView(
      String sessionId,
      String title,
      String html,
      String filePath,
      String caption,
      Integer height,
      String width) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"title\": TEXT, \"html\": HTML} or with \"file_path\" instead"
            + " of \"html\"; \"caption\"?, \"height\"? (160-900), \"width\"? (narrow, wide, full).";

    public SendView {
      session(sessionId);
      title = text(title, "title", 1, MAX_VIEW_TITLE);
      if ((html == null) == (filePath == null)) {
        throw new BadRequest("Give exactly one of html and file_path.");
      }
      if (html != null) {
        if (html.isBlank()) {
          throw new BadRequest("html is empty.");
        }
        if (html.getBytes(StandardCharsets.UTF_8).length > MAX_HTML_BYTES) {
          throw new BadRequest(
              "html is larger than " + MAX_HTML_BYTES / 1024 + " KiB of UTF-8; send a file.");
        }
      }
      filePath = filePath == null ? null : text(filePath, "file_path", 1, MAX_PATH);
      caption = caption == null ? null : text(caption, "caption", 0, MAX_CAPTION);
      height = height == null ? DEFAULT_HEIGHT : height;
      if (height < MIN_HEIGHT || height > MAX_HEIGHT) {
        throw new BadRequest("height is " + MIN_HEIGHT + " to " + MAX_HEIGHT + " pixels.");
      }
      width = Web.width(width == null ? DEFAULT_WIDTH : width);
    }
  }

  /** One decision the agent took, for the person to approve or question. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Decision(String title, String decision, String context, String reasoning) {
    public Decision {
      title = text(title, "a decision's title", 1, MAX_DECISION_TITLE);
      decision = text(decision, "decision", 1, MAX_DECISION_TEXT);
      context = text(context, "context", 1, MAX_DECISION_TEXT);
      reasoning = text(reasoning, "reasoning", 1, MAX_DECISION_TEXT);
    }
  }

  /** Decisions for the person ({@link #SEND_DECISION}), 1 to {@link #MAX_DECISIONS}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record SendDecision(String sessionId, List<Decision> decisions) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"decisions\": [{\"title\", \"decision\", \"context\","
            + " \"reasoning\"}]}.";

    public SendDecision {
      session(sessionId);
      if (decisions == null || decisions.isEmpty() || decisions.size() > MAX_DECISIONS) {
        throw new BadRequest("decisions holds 1 to " + MAX_DECISIONS + " decisions.");
      }
      for (Decision d : decisions) {
        if (d == null) {
          throw new BadRequest("decisions holds objects {title, decision, context, reasoning}.");
        }
      }
      decisions = List.copyOf(decisions);
    }
  }

  /** Opens a board for the session ({@link #BOARD_OPEN}): a new one by title, or one by id/slug. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardOpen(String sessionId, String title, String board) {
    public static final String USAGE =
        "Send {\"session_id\": ID, \"title\": TEXT} for a new board or {\"session_id\": ID,"
            + " \"board\": ID or SLUG}.";

    public BoardOpen {
      session(sessionId);
      if ((title == null) == (board == null)) {
        throw new BadRequest(
            "Give exactly one of title (a new board) and board (an existing one).");
      }
      title = title == null ? null : text(title, "title", 1, MAX_BOARD_TITLE);
      board = board == null ? null : text(board, "board", 1, MAX_BOARD_REF);
    }
  }

  /** {@link #BOARD_OF}: the calling session. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardOf(String sessionId) {
    public static final String USAGE = "Send {\"session_id\": ID}.";

    public BoardOf {
      session(sessionId);
    }
  }

  /**
   * The answer of {@link #BOARD_OF}: whether the session is a web session, and its board (null when
   * none is bound).
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardOfSession(boolean web, Board board) {}

  /** A file as delivered. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record SentFile(
      String fileId, String name, long size, String mediaType, String preview, String path) {}

  /** The answer of {@link #SEND_FILE}, {@link #SEND_VIEW} and {@link #SEND_DECISION}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Sent(String attachment, long seq, List<SentFile> files, String path) {
    public Sent {
      files = files == null ? List.of() : List.copyOf(files);
    }
  }

  /** A board. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Board(
      String id, String slug, String title, String dir, List<String> sessions, String updatedAt) {
    public Board {
      sessions = sessions == null ? List.of() : List.copyOf(sessions);
    }
  }

  /** The answer of {@link #BOARD_OPEN}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardOpened(Board board, boolean created, String attachment) {}

  /**
   * {@link #VIEWS_WIDTH}: the width a person chose for a view; without {@code width}, the width the
   * view has now (the one saved last, else the agent's).
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ViewWidth(String attachment, String width) {
    public static final String USAGE =
        "Send {\"attachment\": ID, \"width\"?: \"narrow\"|\"wide\"|\"full\"}.";

    public ViewWidth {
      checkAttachment(attachment);
      width = width == null ? null : Web.width(width);
    }
  }

  /** {@link #DECISIONS_SHOW}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record DecisionRef(String attachment) {
    public static final String USAGE = "Send {\"attachment\": ID}.";

    public DecisionRef {
      checkAttachment(attachment);
    }
  }

  /** {@link #DECISIONS_ACT}: a person approves a decision, asks why, or asks for a change. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record DecisionAct(String attachment, Integer index, String action, String text) {
    public static final String USAGE =
        "Send {\"attachment\": ID, \"index\": N, \"action\": \"approve\"|\"explain\"|\"change\","
            + " \"text\"?: TEXT}.";

    public DecisionAct {
      checkAttachment(attachment);
      if (index == null || index < 0 || index >= MAX_DECISIONS) {
        throw new BadRequest("index is the decision's place, 0 to " + (MAX_DECISIONS - 1) + ".");
      }
      action = action == null ? null : action.strip().toLowerCase(Locale.ROOT);
      if (action == null || !ACTIONS.contains(action)) {
        throw new BadRequest("action is approve, explain or change.");
      }
      text = text == null || text.isBlank() ? null : Web.text(text, "text", 1, MAX_ACT_TEXT);
      if (action.equals("change") && text == null) {
        throw new BadRequest("A change needs text: say what to change.");
      }
    }
  }

  /** One action taken on a decision. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Action(String at, String action, String text, String by) {}

  /** A decision with its state and actions. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record DecisionState(
      int index,
      String title,
      String decision,
      String context,
      String reasoning,
      String state,
      List<Action> actions) {
    public DecisionState {
      actions = List.copyOf(actions);
    }
  }

  /** The answer of {@link #DECISIONS_SHOW} and {@link #DECISIONS_ACT}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Decisions(String attachment, String session, List<DecisionState> decisions) {
    public Decisions {
      decisions = List.copyOf(decisions);
    }
  }

  /** The answer of {@link #BOARDS_LIST}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Boards(List<Board> boards) {
    public Boards {
      boards = List.copyOf(boards);
    }
  }

  /** {@link #BOARDS_SHOW}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardRef(String board) {
    public static final String USAGE = "Send {\"board\": ID or SLUG}.";

    public BoardRef {
      board = text(board, "board", 1, MAX_BOARD_REF);
    }
  }

  /** A file in a board's directory. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardFile(String name, long size, String updatedAt) {}

  /** The answer of {@link #BOARDS_SHOW}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record BoardShown(
      Board board, List<Sessions.View> sessions, List<BoardFile> files, String content) {}

  /** The codes of the web routes beside {@code INVALID_ARGUMENT}. */
  public static final class Codes {
    private Codes() {}

    /** No such attachment, board or session. */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** The call came from no session, or from one that is not on a {@code web:} channel. */
    public static final String NOT_WEB = "NOT_WEB_SESSION";

    /** A file to send is missing, not a regular file, too large or outside the sandbox. */
    public static final String FILE_UNREADABLE = "FILE_UNREADABLE";
  }

  public static String width(String width) {
    String name = width == null ? null : width.strip().toLowerCase(Locale.ROOT);
    if (name == null || !WIDTHS.contains(name)) {
      throw new BadRequest("width is narrow, wide or full.");
    }
    return name;
  }

  private static String checkFileName(String name) {
    text(name, "file_name", 1, MAX_FILE_NAME);
    if (name.contains("/")
        || name.contains("\\")
        || name.equals(".")
        || name.equals("..")
        || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new BadRequest(
          "file_name is a plain name (no '/', '\\', control characters, '.' or '..').");
    }
    return name.strip();
  }

  private static void checkAttachment(String id) {
    if (id == null || !ATTACHMENT_ID.matcher(id).matches()) {
      throw new BadRequest("attachment is an attachment id such as att_3fa2c1d0e4b5a697.");
    }
  }

  private static void session(String sessionId) {
    if (sessionId == null || sessionId.isBlank()) {
      throw new BadRequest("session_id names the calling session.");
    }
  }

  private static String text(String value, String what, int min, int max) {
    if (value == null) {
      throw new BadRequest(what + " is required.");
    }
    if (value.strip().length() < min || value.length() > max) {
      throw new BadRequest(what + " is " + min + " to " + max + " characters.");
    }
    return value;
  }
}
