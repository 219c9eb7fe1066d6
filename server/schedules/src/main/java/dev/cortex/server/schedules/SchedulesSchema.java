package dev.cortex.server.schedules;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code schedules} area: schedules and their fires. A fire is claimed in the transaction that
 * moves its schedule's next due time on, and {@code (schedule_id, due_at, manual)} is unique:
 * however many schedulers share the database, a due time fires once. A fire records what became of
 * it: claimed, queued, started (its session, then its execution and outcome), skipped (and why), or
 * missed.
 */
public final class SchedulesSchema {
  private SchedulesSchema() {}

  public static Area area() {
    return Area.of(
        "schedules",
        Migration.sql(
            1,
            """
            CREATE TABLE schedules (
              id TEXT PRIMARY KEY,
              project TEXT,
              prompt TEXT NOT NULL,
              timing TEXT NOT NULL,
              target_kind TEXT NOT NULL,
              target TEXT,
              backend TEXT,
              model TEXT,
              overlap TEXT NOT NULL,
              missed TEXT NOT NULL,
              grace_seconds INTEGER NOT NULL,
              check_command TEXT,
              check_timeout_seconds INTEGER,
              working_directory TEXT,
              program TEXT,
              paused INTEGER NOT NULL,
              next_due TEXT,
              created_at TEXT NOT NULL
            );
            CREATE INDEX schedules_by_project ON schedules (project);
            CREATE TABLE schedule_fires (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              schedule_id TEXT NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
              due_at TEXT NOT NULL,
              claimed_at TEXT NOT NULL,
              state TEXT NOT NULL,
              reason TEXT,
              check_exit INTEGER,
              check_tail TEXT,
              session_id TEXT,
              execution_id TEXT,
              outcome TEXT,
              started_at TEXT,
              ended_at TEXT,
              manual INTEGER NOT NULL DEFAULT 0,
              UNIQUE (schedule_id, due_at, manual)
            );
            CREATE INDEX schedule_fires_by_state ON schedule_fires (state, schedule_id);
            CREATE INDEX schedule_fires_by_session ON schedule_fires (session_id, state);
            """));
  }
}
