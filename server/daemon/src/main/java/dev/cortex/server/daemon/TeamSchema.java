package dev.cortex.server.daemon;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code team} area: the workers of main sessions. Each worker is a persistent session of its
 * own; its row says which of its turns {@code mark_routine} marked, which turn's end was last
 * reported to the main session (a report is sent once: its inbox key names the worker and the
 * turn), and its last report with the main session's unread routine updates.
 */
final class TeamSchema {
  private TeamSchema() {}

  static Area area() {
    return Area.of(
        "team",
        Migration.sql(
            1,
            """
            CREATE TABLE workers (
              id TEXT PRIMARY KEY,
              main_session_id TEXT NOT NULL,
              name TEXT NOT NULL,
              session_id TEXT NOT NULL UNIQUE,
              backend TEXT NOT NULL,
              model TEXT,
              routine_execution TEXT,
              reported_execution TEXT,
              last_status TEXT,
              last_report TEXT,
              last_report_at TEXT,
              unread INTEGER NOT NULL DEFAULT 0,
              created_at TEXT NOT NULL,
              UNIQUE (main_session_id, name)
            );
            """));
  }
}
