package dev.cortex.server.sessions.store;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code sessions} area: sessions, their transcripts and inboxes (each message queued, offered
 * to a turn, or delivered), executions and costs.
 */
public final class SessionsSchema {
  private SessionsSchema() {}

  public static Area area() {
    return Area.of(
        "sessions",
        Migration.sql(
            1,
            """
            CREATE TABLE sessions (
              id TEXT PRIMARY KEY,
              name TEXT NOT NULL UNIQUE,
              channel TEXT NOT NULL UNIQUE,
              project TEXT,
              backend TEXT NOT NULL,
              model TEXT,
              mode TEXT NOT NULL,
              composition TEXT NOT NULL,
              started_by TEXT NOT NULL,
              tool_allowlist TEXT,
              program TEXT,
              working_dir TEXT NOT NULL,
              state TEXT NOT NULL,
              backend_session_id TEXT,
              created_at TEXT NOT NULL,
              updated_at TEXT NOT NULL
            );
            CREATE TABLE session_transcript (
              session_id TEXT NOT NULL REFERENCES sessions (id),
              seq INTEGER NOT NULL,
              execution_id TEXT,
              kind TEXT NOT NULL,
              body TEXT NOT NULL,
              at TEXT NOT NULL,
              PRIMARY KEY (session_id, seq)
            );
            CREATE TABLE session_inbox (
              session_id TEXT NOT NULL REFERENCES sessions (id),
              seq INTEGER NOT NULL,
              text TEXT NOT NULL,
              source TEXT NOT NULL,
              at TEXT NOT NULL,
              delivered_to TEXT,
              PRIMARY KEY (session_id, seq)
            );
            CREATE TABLE executions (
              id TEXT PRIMARY KEY,
              kind TEXT NOT NULL,
              status TEXT NOT NULL,
              channel TEXT,
              project TEXT,
              session_id TEXT,
              backend TEXT,
              model TEXT,
              started_at TEXT NOT NULL,
              ended_at TEXT,
              cost_usd REAL NOT NULL DEFAULT 0,
              turns INTEGER NOT NULL DEFAULT 0,
              output TEXT,
              error TEXT,
              owner_pid INTEGER,
              owner_start TEXT
            );
            CREATE INDEX executions_by_start ON executions (started_at);
            CREATE INDEX executions_by_status ON executions (status, started_at);
            CREATE TABLE costs (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              at TEXT NOT NULL,
              execution_id TEXT,
              session_id TEXT,
              project TEXT,
              source TEXT NOT NULL,
              model TEXT,
              mode TEXT NOT NULL,
              input_tokens INTEGER NOT NULL,
              output_tokens INTEGER NOT NULL,
              cache_read_tokens INTEGER NOT NULL,
              cache_write_tokens INTEGER NOT NULL,
              usd REAL NOT NULL
            );
            CREATE INDEX costs_by_time ON costs (at);
            CREATE INDEX costs_by_project ON costs (project, at);
            """),
        Migration.sql(
            2,
            """
            ALTER TABLE session_inbox ADD COLUMN dedupe_key TEXT;
            CREATE UNIQUE INDEX session_inbox_by_key ON session_inbox (dedupe_key)
              WHERE dedupe_key IS NOT NULL;
            """),
        // Each message's state: queued, offered to a turn (offered_to) that has not acknowledged
        // it yet, or delivered (delivered_to).
        Migration.sql(
            3,
            """
            ALTER TABLE session_inbox ADD COLUMN state TEXT NOT NULL DEFAULT 'queued';
            ALTER TABLE session_inbox ADD COLUMN offered_to TEXT;
            UPDATE session_inbox SET state = 'delivered' WHERE delivered_to IS NOT NULL;
            CREATE INDEX session_inbox_by_state ON session_inbox (session_id, state, seq);
            """),
        // A delivered message's text is in the transcript: the inbox keeps its number, key and
        // state, and when it was delivered (delivered_at), until it is pruned.
        Migration.sql(
            4,
            """
            ALTER TABLE session_inbox ADD COLUMN delivered_at TEXT;
            UPDATE session_inbox SET text = '' WHERE state = 'delivered';
            CREATE INDEX session_inbox_waiting ON session_inbox (state, session_id);
            """),
        // Who serves a session's model, and how hard it thinks (null for the backend's default).
        Migration.sql(
            5,
            """
            ALTER TABLE sessions ADD COLUMN provider TEXT;
            ALTER TABLE sessions ADD COLUMN thinking TEXT;
            """),
        // The turns of one session, newest first (the workbench's executions of a session).
        Migration.sql(
            6,
            """
            CREATE INDEX executions_by_session ON executions (session_id, started_at);
            """));
  }
}
