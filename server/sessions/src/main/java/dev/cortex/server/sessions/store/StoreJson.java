package dev.cortex.server.sessions.store;

import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON the session store keeps in its columns: transcript bodies, tool allowlists and programs,
 * as trees, maps and lists of strings.
 */
final class StoreJson {
  private StoreJson() {}

  static final JsonMapper MAPPER = JsonMapper.builder().build();
}
