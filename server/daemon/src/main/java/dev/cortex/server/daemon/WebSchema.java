package dev.cortex.server.daemon;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code web} area: what the {@code web} group's tools delivered into a session's conversation
 * (attachments: files, views, decisions and boards, each with its metadata as JSON, never the
 * bytes), the actions people took on decisions, and boards with the sessions bound to them (a
 * session to at most one board).
 */
final class WebSchema {
  private WebSchema() {}

  static Area area() {
    return Area.of(
        "web",
        Migration.sql(
            1,
            """
            CREATE TABLE web_attachments (
              id TEXT PRIMARY KEY,
              session_id TEXT NOT NULL,
              type TEXT NOT NULL,
              meta TEXT NOT NULL,
              created_at TEXT NOT NULL
            );
            CREATE INDEX web_attachments_by_session ON web_attachments (session_id, created_at);
            CREATE TABLE web_decision_actions (
              attachment_id TEXT NOT NULL,
              idx INTEGER NOT NULL,
              seq INTEGER NOT NULL,
              action TEXT NOT NULL,
              text TEXT,
              by TEXT NOT NULL,
              at TEXT NOT NULL,
              PRIMARY KEY (attachment_id, idx, seq)
            );
            CREATE TABLE web_boards (
              id TEXT PRIMARY KEY,
              slug TEXT NOT NULL UNIQUE,
              title TEXT NOT NULL,
              created_at TEXT NOT NULL,
              updated_at TEXT NOT NULL
            );
            CREATE TABLE web_board_bindings (
              session_id TEXT PRIMARY KEY,
              board_id TEXT NOT NULL,
              bound_at TEXT NOT NULL
            );
            CREATE INDEX web_board_bindings_by_board ON web_board_bindings (board_id);
            """));
  }
}
