package dev.cortex.server.daemon;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/**
 * The {@code interactions} area: the questions and plan approvals that sessions put before a
 * person, with what was answered, by whom and from where; and which sessions are planning. An
 * answer to a question that did not block is delivered to its session once ({@code delivered_at} is
 * set once the session's inbox holds it, under a key of the request id).
 */
final class InteractionsSchema {
  private InteractionsSchema() {}

  static Area area() {
    return Area.of(
        "interactions",
        Migration.sql(
            1,
            """
            CREATE TABLE interactions (
              id TEXT PRIMARY KEY,
              session_id TEXT NOT NULL,
              kind TEXT NOT NULL,
              blocking INTEGER NOT NULL,
              level TEXT NOT NULL,
              payload TEXT NOT NULL,
              state TEXT NOT NULL,
              created_at TEXT NOT NULL,
              expires_at TEXT NOT NULL,
              ended_at TEXT,
              answered_by TEXT,
              answered_via TEXT,
              answer TEXT,
              delivered_at TEXT
            );
            CREATE INDEX interactions_by_session ON interactions (session_id, state);
            CREATE INDEX interactions_by_state ON interactions (state, expires_at);
            CREATE INDEX interactions_by_end ON interactions (ended_at);
            CREATE TABLE interaction_planning (
              session_id TEXT PRIMARY KEY,
              reasoning TEXT,
              entered_at TEXT NOT NULL
            );
            """));
  }
}
