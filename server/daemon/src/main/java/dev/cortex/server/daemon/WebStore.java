package dev.cortex.server.daemon;

import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The SQL of the {@code web} area ({@link WebSchema}). Every method runs in its caller's
 * transaction.
 */
final class WebStore {
  private WebStore() {}

  /** An attachment as kept: {@code meta} is the JSON body its transcript entry carries. */
  record Attachment(String id, String sessionId, String type, String meta, Instant createdAt) {}

  record Action(int index, String action, String text, String by, Instant at) {}

  record Board(String id, String slug, String title, Instant createdAt, Instant updatedAt) {}

  static void insert(Connection c, Attachment a) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO web_attachments (id, session_id, type, meta, created_at)
        VALUES (?, ?, ?, ?, ?)
        """,
        a.id(),
        a.sessionId(),
        a.type(),
        a.meta(),
        a.createdAt());
  }

  static Attachment attachment(Connection c, String id) throws SQLException {
    return Sql.one(
        c,
        "SELECT * FROM web_attachments WHERE id = ?",
        rs ->
            new Attachment(
                rs.getString("id"),
                rs.getString("session_id"),
                rs.getString("type"),
                rs.getString("meta"),
                Sql.instant(rs.getString("created_at"))),
        id);
  }

  static void meta(Connection c, String id, String meta) throws SQLException {
    Sql.update(c, "UPDATE web_attachments SET meta = ? WHERE id = ?", meta, id);
  }

  static void addAction(Connection c, String attachmentId, Action a) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO web_decision_actions (attachment_id, idx, seq, action, text, by, at)
        VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM web_decision_actions
                       WHERE attachment_id = ? AND idx = ?), ?, ?, ?, ?)
        """,
        attachmentId,
        a.index(),
        attachmentId,
        a.index(),
        a.action(),
        a.text(),
        a.by(),
        a.at());
  }

  static List<Action> actions(Connection c, String attachmentId) throws SQLException {
    return Sql.query(
        c,
        """
        SELECT * FROM web_decision_actions WHERE attachment_id = ? ORDER BY idx, seq
        """,
        rs ->
            new Action(
                rs.getInt("idx"),
                rs.getString("action"),
                rs.getString("text"),
                rs.getString("by"),
                Sql.instant(rs.getString("at"))),
        attachmentId);
  }

  static void insert(Connection c, Board b) throws SQLException {
    Sql.update(
        c,
        "INSERT INTO web_boards (id, slug, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
        b.id(),
        b.slug(),
        b.title(),
        b.createdAt(),
        b.updatedAt());
  }

  /** A board by its id or its slug, or null. */
  static Board board(Connection c, String idOrSlug) throws SQLException {
    return Sql.one(
        c,
        "SELECT * FROM web_boards WHERE id = ? OR slug = ?",
        WebStore::board,
        idOrSlug,
        idOrSlug);
  }

  static boolean slugTaken(Connection c, String slug) throws SQLException {
    return Sql.one(c, "SELECT 1 AS one FROM web_boards WHERE slug = ?", rs -> 1, slug) != null;
  }

  static List<Board> boards(Connection c) throws SQLException {
    return Sql.query(c, "SELECT * FROM web_boards ORDER BY updated_at DESC, id", WebStore::board);
  }

  static void touch(Connection c, String boardId, Instant at) throws SQLException {
    Sql.update(c, "UPDATE web_boards SET updated_at = ? WHERE id = ?", at, boardId);
  }

  /** Binds a session to a board, moving it off the board it was bound to. */
  static void bind(Connection c, String sessionId, String boardId, Instant at) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO web_board_bindings (session_id, board_id, bound_at) VALUES (?, ?, ?)
        ON CONFLICT (session_id) DO UPDATE SET board_id = excluded.board_id,
          bound_at = excluded.bound_at
        """,
        sessionId,
        boardId,
        at);
  }

  /** The board a session is bound to, or null. */
  static Board boundBoard(Connection c, String sessionId) throws SQLException {
    return Sql.one(
        c,
        """
        SELECT b.* FROM web_boards b JOIN web_board_bindings w ON w.board_id = b.id
        WHERE w.session_id = ?
        """,
        WebStore::board,
        sessionId);
  }

  static List<String> boundSessions(Connection c, String boardId) throws SQLException {
    return Sql.query(
        c,
        "SELECT session_id FROM web_board_bindings WHERE board_id = ? ORDER BY bound_at, session_id",
        rs -> rs.getString("session_id"),
        boardId);
  }

  private static Board board(ResultSet rs) throws SQLException {
    return new Board(
        rs.getString("id"),
        rs.getString("slug"),
        rs.getString("title"),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("updated_at")));
  }
}
