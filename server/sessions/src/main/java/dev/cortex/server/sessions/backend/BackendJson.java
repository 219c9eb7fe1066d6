package dev.cortex.server.sessions.backend;

import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON the backends read and write: the command protocol's lines and Claude Code's stream-json,
 * exactly as their peers spell them (no naming strategy: every name is the peer's own), as trees
 * and maps.
 */
final class BackendJson {
  private BackendJson() {}

  static final JsonMapper MAPPER = JsonMapper.builder().build();
}
