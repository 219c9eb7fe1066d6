package dev.cortex.server.daemon;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code subagents} area: each subagent a session's {@code agent} call started, with its parent
 * session (and the parent's turn), its child session, where it stands and what it produced. A
 * background subagent's result is delivered to its parent once ({@code delivered_at} is set once
 * the parent's inbox holds it, under a key of the subagent's id).
 */
final class SubagentsSchema {
  private SubagentsSchema() {}

  static Area area() {
    return Area.of(
        "subagents",
        Migration.sql(
            1,
            """
            CREATE TABLE subagents (
              id TEXT PRIMARY KEY,
              call_id TEXT NOT NULL,
              position INTEGER NOT NULL,
              mode TEXT NOT NULL,
              parent_session_id TEXT NOT NULL,
              parent_execution_id TEXT,
              child_session_id TEXT NOT NULL,
              description TEXT NOT NULL,
              subagent_type TEXT NOT NULL,
              backend TEXT NOT NULL,
              model TEXT,
              status TEXT NOT NULL,
              background INTEGER NOT NULL,
              output TEXT,
              error TEXT,
              cost_usd REAL NOT NULL DEFAULT 0,
              created_at TEXT NOT NULL,
              ended_at TEXT,
              delivered_at TEXT
            );
            CREATE INDEX subagents_by_parent ON subagents (parent_session_id, created_at);
            CREATE INDEX subagents_by_status ON subagents (status);
            CREATE INDEX subagents_by_child ON subagents (child_session_id);
            """));
  }
}
