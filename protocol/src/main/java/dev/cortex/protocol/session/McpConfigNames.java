package dev.cortex.protocol.session;

import java.util.List;

/**
 * The MCP client configuration files that {@code cortex server} writes into the home's config
 * directory at start and that a session's backend is started with: their names, and the groups of
 * the {@code direct} composition.
 */
public final class McpConfigNames {
  private McpConfigNames() {}

  /** The file of the {@code direct} composition. */
  public static final String DIRECT = "mcp-config.json";

  /** The file of the {@code none} composition: no servers. */
  public static final String EMPTY = "mcp-config-empty.json";

  /** The groups of the {@code direct} composition. */
  public static final List<String> DIRECT_GROUPS = List.of("core", "ext");
}
