package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Web;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the {@code web} group delivers into a {@code web:} session's conversation, and what people
 * do with it. Files are copied to {@code workspace/outputs/<session>/}, views written to its {@code
 * views/}; each delivery is one attachment row and one transcript entry of kind {@code attachment}
 * (ids, names, sizes and paths, never the bytes), recorded only once everything it needs was
 * checked and written. Decisions collect people's actions; boards bind sessions.
 */
public final class WebService {
  private static final Logger log = LoggerFactory.getLogger(WebService.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Where a file comes from on a device. */
  interface DeviceFiles {
    /**
     * Copies {@code path} on {@code device}, at most {@code maxBytes}, into the existing file
     * {@code target} (a chunk at a time, never whole in memory); its size. A coded exception when
     * the device or the file cannot give it; {@code target} may then hold part of it.
     */
    long copy(String device, String path, long maxBytes, Path target);
  }

  private final java.util.function.Supplier<Database> database;
  private final SessionService sessions;
  private final Path workspace;
  private final Clock clock;
  private final DeviceFiles devices;
  private final List<Consumer<WebChange>> listeners = new CopyOnWriteArrayList<>();

  /** The most boards whose last seen content is remembered (the least recently seen go first). */
  static final int SEEN_BOARDS = 1_000;

  /** Each board's directory as last seen: its files' names, sizes and times. */
  private final Map<String, String> seenBoards =
      java.util.Collections.synchronizedMap(
          new java.util.LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
              return size() > SEEN_BOARDS;
            }
          });

  WebService(
      java.util.function.Supplier<Database> database,
      SessionService sessions,
      Path workspace,
      Clock clock,
      DeviceFiles devices) {
    this.database = database;
    this.sessions = sessions;
    this.workspace = workspace;
    this.clock = clock;
    this.devices = devices;
  }

  /** Hears every change of a decision's actions and of boards, on the thread that made it. */
  public void onChange(Consumer<WebChange> listener) {
    listeners.add(listener);
  }

  Path outputs(String sessionId) {
    return workspace.resolve("outputs").resolve(sessionId);
  }

  Path boardsDir() {
    return workspace.resolve("boards");
  }

  // ---- deliveries -------------------------------------------------------------------------

  Web.Sent sendFile(Web.SendFile request) {
    Session session = webSession(request.sessionId());
    List<Staged> staged = stage(session, request);
    Path dir = outputs(session.id());
    List<Path> written = new ArrayList<>();
    List<Web.SentFile> sent = new ArrayList<>();
    try {
      for (Staged s : staged) {
        Path target = WebFiles.freshFile(dir, s.name());
        written.add(target);
        s.write(target);
        String stored = target.getFileName().toString();
        sent.add(
            new Web.SentFile(
                "f_" + hex(6),
                stored,
                s.size(),
                s.mediaType(),
                WebMedia.preview(s.mediaType()),
                "outputs/" + session.id() + "/" + stored));
      }
    } catch (IOException e) {
      written.forEach(WebService::deleteQuietly);
      staged.forEach(Staged::discard);
      log.warn("files of session {} could not be copied: {}", session.id(), e.toString());
      throw new CodedException(ErrorCodes.INTERNAL, "The files could not be stored on the server.");
    }
    String id = "att_" + hex(8);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "files");
    body.put("id", id);
    body.put("caption", request.caption());
    List<Map<String, Object>> files = new ArrayList<>();
    for (Web.SentFile f : sent) {
      Map<String, Object> file = new LinkedHashMap<>();
      file.put("file_id", f.fileId());
      file.put("name", f.name());
      file.put("size", f.size());
      file.put("media_type", f.mediaType());
      file.put("preview", f.preview());
      file.put("path", f.path());
      files.add(file);
    }
    body.put("files", files);
    long seq;
    try {
      seq = deliver(session, id, "files", body);
    } catch (RuntimeException e) {
      written.forEach(WebService::deleteQuietly);
      throw e;
    }
    return new Web.Sent(id, seq, sent, null);
  }

  /**
   * A file to send, checked, with what it will be called: a local file, or one already fetched from
   * a device into a hidden file of the outputs, moved to its name when it is written.
   */
  private record Staged(
      String name, long size, String mediaType, WebFiles.Source local, Path fetched) {
    void write(Path target) throws IOException {
      if (local != null) {
        WebFiles.copy(local, target);
      } else {
        Files.move(fetched, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }

    void discard() {
      if (fetched != null) {
        deleteQuietly(fetched);
      }
    }
  }

  private List<Staged> stage(Session session, Web.SendFile request) {
    List<Staged> staged = new ArrayList<>();
    try {
      for (Web.FileRef ref : request.refs()) {
        staged.add(stage(session, request.device(), ref));
      }
    } catch (RuntimeException e) {
      staged.forEach(Staged::discard);
      throw e;
    }
    return staged;
  }

  private Staged stage(Session session, String device, Web.FileRef ref) {
    String name =
        ref.fileName() != null ? ref.fileName() : Path.of(ref.filePath()).getFileName() + "";
    if (name.isBlank() || name.equals("null")) {
      throw new CodedException(
          ErrorCodes.INVALID_ARGUMENT, "Name the file " + ref.filePath() + " with file_name.");
    }
    if (device == null) {
      WebFiles.Source source =
          WebFiles.source(session.workingDirectory(), ref.filePath(), Web.MAX_FILE_BYTES);
      return new Staged(name, source.size(), WebMedia.type(source.head(), name), source, null);
    }
    Path fetched;
    try {
      Path dir = outputs(session.id());
      Files.createDirectories(dir);
      fetched = Files.createTempFile(dir, ".fetching-", ".part");
    } catch (IOException e) {
      log.warn("a file of session {} could not be fetched: {}", session.id(), e.toString());
      throw new CodedException(ErrorCodes.INTERNAL, "The files could not be stored on the server.");
    }
    try {
      long size = devices.copy(device, ref.filePath(), Web.MAX_FILE_BYTES, fetched);
      byte[] head;
      try (java.io.InputStream in = Files.newInputStream(fetched)) {
        head = in.readNBytes(512);
      }
      return new Staged(name, size, WebMedia.type(head, name), null, fetched);
    } catch (IOException e) {
      deleteQuietly(fetched);
      log.warn("a file of session {} could not be fetched: {}", session.id(), e.toString());
      throw new CodedException(ErrorCodes.INTERNAL, "The files could not be stored on the server.");
    } catch (RuntimeException e) {
      deleteQuietly(fetched);
      throw e;
    }
  }

  Web.Sent sendView(Web.SendView request) {
    Session session = webSession(request.sessionId());
    String html;
    if (request.html() != null) {
      html = request.html();
    } else {
      html = viewFile(session, request.filePath());
    }
    String id = "att_" + hex(8);
    Path dir = outputs(session.id()).resolve("views");
    Path file = dir.resolve(id + ".html");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, html, StandardCharsets.UTF_8);
    } catch (IOException e) {
      deleteQuietly(file);
      log.warn("a view of session {} could not be written: {}", session.id(), e.toString());
      throw new CodedException(ErrorCodes.INTERNAL, "The view could not be stored on the server.");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "view");
    body.put("id", id);
    body.put("title", request.title());
    body.put("caption", request.caption());
    body.put("height", request.height());
    body.put("width", request.width());
    long seq;
    try {
      seq = deliver(session, id, "view", body);
    } catch (RuntimeException e) {
      deleteQuietly(file);
      throw e;
    }
    return new Web.Sent(id, seq, List.of(), "outputs/" + session.id() + "/views/" + id + ".html");
  }

  private static String viewFile(Session session, String given) {
    WebFiles.Source source =
        WebFiles.inside(session.workingDirectory(), given, Web.MAX_VIEW_FILE_BYTES);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(source.path())))
          .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw WebFiles.unreadable("The view file " + given + " is not UTF-8 text.");
    } catch (IOException e) {
      throw WebFiles.unreadable("The view file " + given + " could not be read.");
    }
  }

  Web.Sent sendDecision(Web.SendDecision request) {
    Session session = webSession(request.sessionId());
    String id = "att_" + hex(8);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "decisions");
    body.put("id", id);
    body.put("decisions", request.decisions());
    long seq = deliver(session, id, "decisions", body);
    return new Web.Sent(id, seq, List.of(), null);
  }

  /** Records the attachment and its transcript entry; the entry's number. */
  private long deliver(Session session, String id, String type, Map<String, Object> body) {
    String meta = WireJson.mapper().writeValueAsString(body);
    Instant now = clock.instant();
    database
        .get()
        .write(
            c -> {
              WebStore.insert(c, new WebStore.Attachment(id, session.id(), type, meta, now));
              return null;
            });
    try {
      return sessions.record(session.id(), Transcript.Kind.ATTACHMENT, meta).seq();
    } catch (SessionException | RuntimeException e) {
      database
          .get()
          .write(
              c -> {
                dev.cortex.storage.Sql.update(c, "DELETE FROM web_attachments WHERE id = ?", id);
                return null;
              });
      throw new CodedException(ErrorCodes.INTERNAL, "The delivery could not be recorded.");
    }
  }

  // ---- views ------------------------------------------------------------------------------

  Map<String, Object> viewWidth(Web.ViewWidth request) {
    WebStore.Attachment a = attachment(request.attachment(), "view");
    ObjectNode meta = (ObjectNode) WireJson.mapper().readTree(a.meta());
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("attachment", a.id());
    if (request.width() == null) {
      result.put("width", meta.path("width").asString(Web.DEFAULT_WIDTH));
      return result;
    }
    meta.put("width", request.width());
    database
        .get()
        .write(
            c -> {
              WebStore.meta(c, a.id(), WireJson.mapper().writeValueAsString(meta));
              return null;
            });
    result.put("width", request.width());
    return result;
  }

  /** The view's HTML file, or null when the server recorded no such view of the session. */
  Path viewFile(String sessionId, String attachmentId) {
    WebStore.Attachment a = database.get().read(c -> WebStore.attachment(c, attachmentId));
    if (a == null || !a.sessionId().equals(sessionId) || !a.type().equals("view")) {
      return null;
    }
    Path file = outputs(sessionId).resolve("views").resolve(a.id() + ".html");
    return Files.isRegularFile(file) ? file : null;
  }

  /** A file the server recorded as delivered to a session. */
  record StoredFile(Path path, String name, String mediaType) {}

  StoredFile file(String sessionId, String fileId) {
    List<WebStore.Attachment> rows =
        database
            .get()
            .read(
                c ->
                    dev.cortex.storage.Sql.query(
                        c,
                        """
                        SELECT * FROM web_attachments WHERE session_id = ? AND type = 'files'
                          AND meta LIKE ?
                        """,
                        rs ->
                            new WebStore.Attachment(
                                rs.getString("id"),
                                rs.getString("session_id"),
                                rs.getString("type"),
                                rs.getString("meta"),
                                null),
                        sessionId,
                        "%\"" + fileId + "\"%"));
    for (WebStore.Attachment a : rows) {
      for (JsonNode f : WireJson.mapper().readTree(a.meta()).path("files")) {
        if (f.path("file_id").asString("").equals(fileId)) {
          Path path = outputs(sessionId).resolve(f.path("name").asString(""));
          if (!path.normalize().startsWith(outputs(sessionId)) || !Files.isRegularFile(path)) {
            return null;
          }
          return new StoredFile(
              path, f.path("name").asString(""), f.path("media_type").asString(""));
        }
      }
    }
    return null;
  }

  // ---- decisions --------------------------------------------------------------------------

  Web.Decisions decisions(Web.DecisionRef ref) {
    return decisions(attachment(ref.attachment(), "decisions"));
  }

  private Web.Decisions decisions(WebStore.Attachment a) {
    JsonNode meta = WireJson.mapper().readTree(a.meta());
    List<WebStore.Action> actions = database.get().read(c -> WebStore.actions(c, a.id()));
    List<Web.DecisionState> states = new ArrayList<>();
    int index = 0;
    for (JsonNode d : meta.path("decisions")) {
      int i = index++;
      List<Web.Action> mine = new ArrayList<>();
      String state = "open";
      for (WebStore.Action x : actions) {
        if (x.index() == i) {
          mine.add(new Web.Action(x.at().toString(), x.action(), x.text(), x.by()));
          state = x.action().equals("approve") ? "approved" : x.action();
        }
      }
      states.add(
          new Web.DecisionState(
              i,
              d.path("title").asString(""),
              d.path("decision").asString(""),
              d.path("context").asString(""),
              d.path("reasoning").asString(""),
              state,
              mine));
    }
    return new Web.Decisions(a.id(), a.sessionId(), states);
  }

  Web.Decisions act(Web.DecisionAct act) {
    WebStore.Attachment a = attachment(act.attachment(), "decisions");
    Web.Decisions before = decisions(a);
    if (act.index() >= before.decisions().size()) {
      throw new CodedException(
          ErrorCodes.INVALID_ARGUMENT,
          "index is 0 to " + (before.decisions().size() - 1) + " for this card.");
    }
    Web.DecisionState decision = before.decisions().get(act.index());
    String text = act.text();
    if (!act.action().equals("approve")) {
      String message = message(decision.title(), act.action(), act.text());
      try {
        sessions.send(a.sessionId(), message, "workbench");
      } catch (SessionException e) {
        throw new CodedException(e.code(), e.getMessage());
      }
      text = message;
    }
    WebStore.Action action =
        new WebStore.Action(act.index(), act.action(), text, "person", clock.instant());
    database
        .get()
        .write(
            c -> {
              WebStore.addAction(c, a.id(), action);
              return null;
            });
    changed(new WebChange(WebChange.DECISION, a.sessionId(), a.id()));
    return decisions(a);
  }

  /** The user message an explain or change sends the agent. */
  static String message(String title, String action, String text) {
    if (action.equals("explain")) {
      return "About your decision “"
          + title
          + "”: please explain it — why this choice, and what else you considered?"
          + (text == null ? "" : "\n\n" + text);
    }
    return "About your decision “" + title + "”: please change it as follows.\n\n" + text;
  }

  // ---- boards -----------------------------------------------------------------------------

  Web.BoardOpened openBoard(Web.BoardOpen request) {
    Session session = webSession(request.sessionId());
    Instant now = clock.instant();
    boolean created = request.title() != null;
    WebStore.Board board;
    if (created) {
      board = createBoard(request.title(), now);
    } else {
      board = database.get().read(c -> WebStore.board(c, request.board()));
      if (board == null) {
        throw new CodedException(
            Web.Codes.NOT_FOUND,
            "There is no board '" + request.board() + "'; open one with a title instead.");
      }
    }
    WebStore.Board bound = board;
    database
        .get()
        .write(
            c -> {
              WebStore.bind(c, session.id(), bound.id(), now);
              WebStore.touch(c, bound.id(), now);
              return null;
            });
    String id = "att_" + hex(8);
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("id", board.id());
    ref.put("slug", board.slug());
    ref.put("title", board.title());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", "board");
    body.put("id", id);
    body.put("board", ref);
    deliver(session, id, "board", body);
    changed(new WebChange(WebChange.BOARD, session.id(), board.id()));
    return new Web.BoardOpened(view(board), created, id);
  }

  private WebStore.Board createBoard(String title, Instant now) {
    String base = slug(title);
    WebStore.Board board =
        database
            .get()
            .write(
                c -> {
                  String slug = base;
                  for (int n = 2; WebStore.slugTaken(c, slug); n++) {
                    slug = base + "-" + n;
                  }
                  WebStore.Board b = new WebStore.Board("brd_" + hex(6), slug, title, now, now);
                  WebStore.insert(c, b);
                  return b;
                });
    Path dir = boardsDir().resolve(board.slug());
    try {
      Files.createDirectories(dir);
      Path index = dir.resolve("BOARD.md");
      if (!Files.exists(index)) {
        Files.writeString(
            index,
            "# "
                + title.strip()
                + "\n\nThe status of this task: what is done, what is next, what blocks it.\n",
            StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      database
          .get()
          .write(
              c -> {
                dev.cortex.storage.Sql.update(c, "DELETE FROM web_boards WHERE id = ?", board.id());
                return null;
              });
      log.warn("board directory {} could not be made: {}", board.slug(), e.toString());
      throw new CodedException(ErrorCodes.INTERNAL, "The board's directory could not be made.");
    }
    changed(new WebChange(WebChange.BOARD, null, board.id()));
    return board;
  }

  /**
   * After a session did something (a tool answered, a turn ended): when it is bound to a board
   * whose directory changed since it was last seen (or was not seen since the server started), the
   * board's listeners hear of it. The agent writes to its board with its own file tools, so this is
   * how an open board page learns of it.
   */
  void sessionActed(String sessionId) {
    WebStore.Board board = database.get().read(c -> WebStore.boundBoard(c, sessionId));
    if (board == null) {
      return;
    }
    String now = fingerprint(boardsDir().resolve(board.slug()));
    String before = seenBoards.put(board.id(), now);
    if (!now.equals(before)) {
      changed(new WebChange(WebChange.BOARD, sessionId, board.id()));
    }
  }

  /** The names, sizes and modification times of a directory's files; empty when it is gone. */
  private static String fingerprint(Path dir) {
    StringBuilder seen = new StringBuilder();
    try (var listing = Files.list(dir)) {
      for (Path p : listing.sorted().toList()) {
        if (Files.isRegularFile(p)) {
          seen.append(p.getFileName())
              .append('\0')
              .append(Files.size(p))
              .append('\0')
              .append(Files.getLastModifiedTime(p).toMillis())
              .append('\n');
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // a board whose directory is gone has nothing in it
    }
    return seen.toString();
  }

  /** The board a session is bound to, or null. */
  Web.Board boardOf(String sessionId) {
    WebStore.Board board = database.get().read(c -> WebStore.boundBoard(c, sessionId));
    return board == null ? null : view(board);
  }

  Web.Boards boards() {
    List<Web.Board> boards = new ArrayList<>();
    for (WebStore.Board b : database.get().read(WebStore::boards)) {
      boards.add(view(b));
    }
    return new Web.Boards(boards);
  }

  /** A board and what is in its directory. */
  record Shown(Web.Board board, List<Web.BoardFile> files, String content) {}

  Shown board(Web.BoardRef ref) {
    WebStore.Board b = database.get().read(c -> WebStore.board(c, ref.board()));
    if (b == null) {
      throw new CodedException(Web.Codes.NOT_FOUND, "There is no board '" + ref.board() + "'.");
    }
    Path dir = boardsDir().resolve(b.slug());
    List<Web.BoardFile> files = new ArrayList<>();
    String content = null;
    try (var listing = Files.list(dir)) {
      for (Path p : listing.sorted().toList()) {
        if (Files.isRegularFile(p)) {
          files.add(
              new Web.BoardFile(
                  p.getFileName().toString(),
                  Files.size(p),
                  Files.getLastModifiedTime(p).toInstant().toString()));
        }
      }
      Path index = dir.resolve("BOARD.md");
      if (Files.isRegularFile(index) && Files.size(index) <= Web.MAX_VIEW_FILE_BYTES) {
        content = Files.readString(index, StandardCharsets.UTF_8);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // a board whose directory is gone shows no files
    }
    return new Shown(view(b), files, content);
  }

  private Web.Board view(WebStore.Board b) {
    List<String> bound = database.get().read(c -> WebStore.boundSessions(c, b.id()));
    return new Web.Board(
        b.id(),
        b.slug(),
        b.title(),
        boardsDir().resolve(b.slug()).toString(),
        bound,
        b.updatedAt().toString());
  }

  /** The slug of a title: lower-case letters and digits joined by '-', at most 60 characters. */
  static String slug(String title) {
    String slug =
        java.text.Normalizer.normalize(title, java.text.Normalizer.Form.NFKD)
            .toLowerCase(java.util.Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "-")
            .replaceAll("^-+|-+$", "");
    if (slug.length() > 60) {
      slug = slug.substring(0, 60).replaceAll("-+$", "");
    }
    return slug.isEmpty() ? "board" : slug;
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** The calling session, which must be on a {@code web:} channel. */
  Session webSession(String sessionId) {
    Session session;
    try {
      session = sessions.get(sessionId);
    } catch (SessionException e) {
      throw new CodedException(
          Web.Codes.NOT_WEB, "The agent server has no session " + sessionId + ".");
    }
    if (!session.id().equals(sessionId) || !session.channel().startsWith("web:")) {
      throw new CodedException(
          Web.Codes.NOT_WEB,
          "Files, views, decisions and boards go to a web workbench session (a web: channel);"
              + " session "
              + sessionId
              + " is on "
              + session.channel()
              + ".");
    }
    return session;
  }

  boolean isWeb(String sessionId) {
    try {
      Session session = sessions.get(sessionId);
      return session.id().equals(sessionId) && session.channel().startsWith("web:");
    } catch (SessionException e) {
      return false;
    }
  }

  private WebStore.Attachment attachment(String id, String type) {
    WebStore.Attachment a = database.get().read(c -> WebStore.attachment(c, id));
    if (a == null || !a.type().equals(type)) {
      throw new CodedException(
          Web.Codes.NOT_FOUND, "There is no " + type.replaceAll("s$", "") + " card " + id + ".");
    }
    return a;
  }

  private void changed(WebChange change) {
    for (Consumer<WebChange> listener : listeners) {
      try {
        listener.accept(change);
      } catch (RuntimeException e) {
        log.warn("a listener of web changes failed: {}", e.toString());
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // left behind; nothing refers to it
    }
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }
}
