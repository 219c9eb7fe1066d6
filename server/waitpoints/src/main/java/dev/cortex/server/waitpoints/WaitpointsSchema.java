package dev.cortex.server.waitpoints;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code waitpoints} area: waitpoints, the signals they received, and the wakes they owe their
 * sessions. A wake is recorded in the transaction that fires it and marked delivered once the
 * session's inbox holds it, so that a restart in between delivers it, once.
 */
public final class WaitpointsSchema {
  private WaitpointsSchema() {}

  public static Area area() {
    return Area.of(
        "waitpoints",
        Migration.sql(
            1,
            """
            CREATE TABLE waitpoints (
              id TEXT PRIMARY KEY,
              session_id TEXT NOT NULL,
              label TEXT NOT NULL,
              intent TEXT NOT NULL,
              members TEXT,
              quorum INTEGER NOT NULL,
              fail_fast INTEGER NOT NULL,
              max_signals INTEGER NOT NULL,
              device TEXT,
              secret_sha256 TEXT NOT NULL,
              state TEXT NOT NULL,
              round INTEGER NOT NULL,
              fires INTEGER NOT NULL,
              closing_until TEXT,
              last_fire_at TEXT,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL,
              ended_at TEXT
            );
            CREATE INDEX waitpoints_by_session ON waitpoints (session_id, state);
            CREATE INDEX waitpoints_by_state ON waitpoints (state, expires_at);
            CREATE TABLE wait_signals (
              seq INTEGER PRIMARY KEY AUTOINCREMENT,
              waitpoint_id TEXT NOT NULL REFERENCES waitpoints (id) ON DELETE CASCADE,
              signal_id TEXT NOT NULL,
              round INTEGER NOT NULL,
              status TEXT NOT NULL,
              message TEXT,
              member TEXT,
              data TEXT,
              via TEXT NOT NULL,
              received_at TEXT NOT NULL,
              UNIQUE (waitpoint_id, signal_id)
            );
            CREATE INDEX wait_signals_by_round ON wait_signals (waitpoint_id, round, status);
            CREATE TABLE wait_wakes (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              waitpoint_id TEXT NOT NULL REFERENCES waitpoints (id) ON DELETE CASCADE,
              session_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              first_round INTEGER,
              last_round INTEGER,
              status TEXT,
              warning TEXT,
              waited_from TEXT NOT NULL,
              created_at TEXT NOT NULL,
              due_at TEXT NOT NULL,
              claimed_at TEXT,
              delivered_at TEXT,
              inbox_seq INTEGER,
              error TEXT
            );
            CREATE INDEX wait_wakes_due ON wait_wakes (delivered_at, due_at);
            CREATE INDEX wait_wakes_by_waitpoint ON wait_wakes (waitpoint_id, kind, due_at);
            """));
  }
}
